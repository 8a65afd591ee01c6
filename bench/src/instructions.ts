// `pnpm bench:instructions`: the CPU instructions one POST /call/read costs the built server,
// counted by valgrind's callgrind. Counts, unlike times, barely move with what else the machine
// is doing, so a change of a few percent on the request path shows in one run of each build
// (a build in a git worktree against this one) where throughput side by side needs many rounds.
// The server runs uninstrumented through its start and a warm-up (so the JIT has settled), then
// only BENCH_INSTR_REQUESTS requests are counted. Needs valgrind (Debian: apt-get install valgrind).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCredentials } from './servers/weft.ts';

const REQUESTS = Number(process.env.BENCH_INSTR_REQUESTS ?? 600);
const WARMUP = Number(process.env.BENCH_INSTR_WARMUP ?? 1000);
const CONCURRENCY = 8;

const dir = mkdtempSync(join(tmpdir(), 'weft-instructions-'));
const creds = writeCredentials(dir);
// vgdb names its files after these variables: both sides must see the same values.
const vgdbEnv = { ...process.env, USER: 'weft', LOGNAME: 'weft', HOST: '127.0.0.1' };
const prefix = `--vgdb-prefix=${join(dir, 'vgdb')}`;
const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [prefix, ...args, String(pid)], { env: vgdbEnv, stdio: 'ignore' });

const entry = fileURLToPath(new URL('./servers/serve-built.mjs', import.meta.url));
const child = spawn(
  'valgrind',
  ['--tool=callgrind', '--instr-atstart=no', prefix, `--callgrind-out-file=${join(dir, 'callgrind.out')}`, process.execPath, entry],
  {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      ...vgdbEnv,
      NODE_ENV: 'production',
      PORT: '0',
      DATA_DIR: join(dir, 'data'),
      AUTH_FILE: creds.authFile,
      LOG_LEVEL: 'silent',
      VALIDATE_RESPONSES: '0',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.once('exit', (code) => reject(new Error(`the server under valgrind exited (${code ?? 'signal'})`)));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const line = /\{"url".*\}/.exec(out);
    if (line) resolve((JSON.parse(line[0]) as { url: string }).url);
  });
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: creds.headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  await res.arrayBuffer();
};
const project_id = 'bench/instructions';
const id = '0190a000-0000-7000-8000-000000000001';
await post('/call/start', {
  start: {
    project_id,
    id,
    trace_id: id,
    op_name: 'predict',
    started_at: '2026-11-29T10:00:00Z',
    attributes: {},
    inputs: { q: 'what is 2+2?' },
  },
});
await post('/call/end', { end: { project_id, id, ended_at: '2026-11-29T10:00:01Z', output: { answer: 4 }, summary: {} } });
const reads = async (n: number) => {
  for (let i = 0; i < n; i += CONCURRENCY)
    await Promise.all(Array.from({ length: CONCURRENCY }, () => post('/call/read', { project_id, id })));
};

await reads(WARMUP);
control(child.pid!, '--instr=on');
await reads(REQUESTS);
control(child.pid!, '--instr=off');
control(child.pid!, '--dump');
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));

const totals = readdirSync(dir)
  .filter((f) => f.startsWith('callgrind.out'))
  .map((f) => Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? 0));
const counted = Math.max(...totals);
if (!(counted > 0)) throw new Error(`callgrind counted nothing (files in ${dir})`);
process.stdout.write(
  `${(counted / REQUESTS / 1000).toFixed(1)} k instructions per call/read (${REQUESTS} requests after ${WARMUP}; ${dir})\n`,
);
