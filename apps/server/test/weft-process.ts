// Runs the `weft` command line in a process of its own, as an operator runs it next to a server
// (from the TypeScript sources: no build needed), and reports its output as it comes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../', import.meta.url));

export interface WeftRun {
  /** Resolves when stderr has printed a line matching `pattern`. */
  stderrLine(pattern: RegExp): Promise<void>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function runWeftProcess(argv: string[], env: Record<string, string>): WeftRun {
  const child = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', 'src/main.ts', ...argv], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    stderr += t;
    for (const check of waiting) check();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      for (const check of waiting) check();
      resolve({ code, stdout, stderr });
    });
  });
  return {
    done,
    stderrLine: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(stderr)) {
            waiting.delete(check);
            resolve();
          } else if (child.exitCode !== null) {
            waiting.delete(check);
            reject(new Error(`weft ${argv.join(' ')} exited without printing ${String(pattern)}:\n${stderr}`));
          }
        };
        waiting.add(check);
        check();
      }),
  };
}
