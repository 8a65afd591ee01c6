// The `weft` command run in the test's own process (runWeft with captured output): for the
// commands that need none of the server's actions, which refuse here if one is reached.
import { runWeft } from '../src/cli/program.ts';

export interface WeftRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function weftInProcess(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<WeftRun> {
  const out = { stdout: '', stderr: '' };
  const io = { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } };
  const refuse = () => Promise.reject(new Error('not an action of this test'));
  const code = await runWeft(argv, io, { serve: refuse, migrate: refuse, migrateStatus: refuse, demo: refuse, openKeys: refuse }, env);
  return { code, ...out };
}
