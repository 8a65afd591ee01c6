// Runs a script of this folder (weave-sdk-script.mjs unless told) in a child process against a
// server, with a clean environment: its own HOME (no ~/.netrc or W&B settings of the machine) and
// its own working directory (where the SDK would write weaveErrors.log).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const scriptPath = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const RESULT_PREFIX = 'WEFT_E2E_RESULT ';

export interface SdkRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The contents of weaveErrors.log, where the SDK records failed uploads and batches. */
  errorLog: string | undefined;
  /** The script's JSON result line, parsed; undefined when it did not get that far. */
  result: unknown;
}

export async function runSdkScript(opts: {
  url: string;
  apiKey: string;
  project: string;
  timeoutMs: number;
  /** Another script of this directory (default weave-sdk-script.mjs). */
  script?: string;
  /** More environment for the script. */
  env?: Record<string, string>;
}): Promise<SdkRun> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-weave-sdk-'));
  try {
    const child = spawn(process.execPath, [scriptPath(opts.script ?? 'weave-sdk-script.mjs')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        WF_TRACE_SERVER_URL: opts.url,
        WANDB_API_KEY: opts.apiKey,
        WEFT_E2E_PROJECT: opts.project,
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    // The SDK retries 5xx answers for hours: a server error must end the run, not hang the test.
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, s) => resolve([c, s]));
    });
    clearTimeout(timer);
    const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
    const logPath = join(dir, 'weaveErrors.log');
    return {
      code,
      signal,
      stdout,
      stderr,
      errorLog: existsSync(logPath) ? readFileSync(logPath, 'utf8') : undefined,
      result: line === undefined ? undefined : JSON.parse(line.slice(RESULT_PREFIX.length)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
