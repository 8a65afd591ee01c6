// Starts Prism on a free port as a child process of the test run, and stops it again.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface RunningPrism {
  baseUrl: string;
  stop(): Promise<void>;
}

const PRISM = fileURLToPath(new URL('../node_modules/.bin/prism', import.meta.url));

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** `prism mock <spec>`, or with `upstream`, `prism proxy <spec> <upstream> --errors`. */
export async function startPrism(
  specFile: string,
  { timeoutMs = 30_000, upstream }: { timeoutMs?: number; upstream?: string } = {},
): Promise<RunningPrism> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // As a proxy, Prism must let invalid requests through: the server's own 4xx answers are what
  // is under test, and `--errors` turns any answer that breaks the spec into a flagged 500.
  const args = upstream
    ? ['proxy', '-h', '127.0.0.1', '-p', String(port), specFile, upstream, '--errors', '--validate-request=false']
    : ['mock', '-h', '127.0.0.1', '-p', String(port), specFile];
  const child = spawn(PRISM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
    if (!killed) child.kill('SIGKILL');
    await exited;
  };

  // Ready when /health (anonymous) answers; the port opens before the routes are loaded.
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`Prism did not answer on ${baseUrl} within ${timeoutMs} ms:\n${output}`);
}
