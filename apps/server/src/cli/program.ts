// The `weft` command (commander): `weft serve` (also `weft` alone), `weft migrate`, `weft demo`, `weft keys add`,
// with --help on every command and --version. Usage errors exit 2, as the shells' own commands
// do; output goes through `io` so tests need no subprocess. What each command does lives with its
// subject (server.ts, auth/cli.ts); this file is the command line only.
import { Command, CommanderError, Option } from 'commander';
import { addKeyCommand, type CliIo } from '../auth/cli.ts';
import { VERSION } from '../version.ts';

export interface ServerActions {
  /** Starts the server; resolves -1 while it runs (the process stays up). */
  serve(): Promise<number>;
  /** Applies the database migrations and resolves the exit code. */
  migrate(): Promise<number>;
  /** Seeds the demo project (undefined: the default one) and resolves the exit code. */
  demo(project: string | undefined): Promise<number>;
}

function program(io: CliIo, actions: ServerActions, done: (code: number) => void): Command {
  const weft = new Command('weft')
    .description('Weft: a self-hostable store for LLM traces, evaluations and RL trajectories.')
    .version(VERSION)
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) })
    .exitOverride()
    .showHelpAfterError();

  weft
    .command('serve')
    .description('start the server (configured by environment variables: see the README)')
    .action(async () => done(await actions.serve()));

  weft
    .command('migrate')
    .description('apply the database migrations (DATABASE_URL) and exit')
    .action(async () => done(await actions.migrate()));

  weft
    .command('demo')
    .description(
      'seed a demo project (agent traces with an error, a dataset, an annotation queue, feedback, an ART run of 20 steps) into the configured database',
    )
    .option('--project <entity/project>', 'the project to write (default: <your entity>/demo)')
    .action(async (opts: { project?: string }) => done(await actions.demo(opts.project)));

  const keys = weft.command('keys').description('manage API keys in an auth file (AUTH_FILE)');
  keys
    .command('add')
    .description('create a key for a user (the file and the user are created if missing), print it once and store only its hash')
    .requiredOption('--file <auth.yaml>', 'the auth file')
    .requiredOption('--user <name>', 'the user the key belongs to')
    .addOption(new Option('--entity <entity...>', 'entities the user may access ("*": every entity, for single-user setups)'))
    .action(async (opts: { file: string; user: string; entity?: string[] }) => done(await addKeyCommand(opts, io)));

  // Every command shares the output and the exit override.
  for (const command of [weft, ...weft.commands, ...keys.commands]) {
    command.configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
    command.exitOverride();
  }
  return weft;
}

/** Runs `weft <argv>`; resolves the exit code, or -1 while the server runs. */
export async function runWeft(argv: string[], io: CliIo, actions: ServerActions): Promise<number> {
  let code = 0;
  try {
    // `weft` alone serves (not a commander default command: `weft bogus` must be an unknown command).
    await program(io, actions, (c) => (code = c)).parseAsync(argv.length === 0 ? ['serve'] : argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // --help and --version end here with code 0; a usage error with its message already written.
    const shown = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    return shown && err.exitCode === 0 ? 0 : 2;
  }
  return code;
}
