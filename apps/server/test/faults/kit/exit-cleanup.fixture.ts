// Run by exit-cleanup.test.ts as a process of its own: starts the pieces named on the command
// line, leaves each in its hardest state (a frozen cluster, a paused redis-server, a full disk
// with a file open on it, a running server), prints what it started and exits without
// cleaning up, as a test process that fails or is told to exit would.
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { createPgCluster } from './pg-cluster.ts';
import { startRedisProcess } from './redis-process.ts';
import { startServerProcess } from './server-process.ts';
import { mountSmallDisk } from './small-disk.ts';

const wanted = new Set(process.argv.slice(2));
const started: Record<string, unknown> = {};
if (wanted.has('pg')) {
  const cluster = await createPgCluster();
  started.pg = { dir: cluster.dir, pids: [cluster.postmasterPid(), ...cluster.childPids()] };
  cluster.freeze();
}
if (wanted.has('redis')) {
  const redis = await startRedisProcess();
  started.redis = { dir: redis.dir, pids: [redis.pid] };
  redis.pause();
}
if (wanted.has('disk')) {
  const disk = await mountSmallDisk(1);
  openSync(join(disk.dir, 'held-open'), 'w');
  disk.fill();
  started.disk = { dir: disk.dir, pids: [] };
}
if (wanted.has('server')) {
  const server = await startServerProcess();
  started.server = { dir: server.dir, pids: [server.pid] };
}
process.stdout.write(`${JSON.stringify(started)}\n`);
process.exit(3);
