// The `weft` command (commander): `weft serve` (also `weft` alone), `weft migrate`, `weft demo`, `weft keys …`,
// with --help on every command and --version. Usage errors exit 2, as the shells' own commands
// do; output goes through `io` so tests need no subprocess. What each command does lives with its
// subject (server.ts, auth/cli.ts); this file is the command line only.
import { Command, CommanderError, Option } from 'commander';
import { addKeyCommand, type CliIo } from '../auth/cli.ts';
import { createKeyCommand, listKeysCommand, revokeKeyCommand, rotateKeyCommand, type OpenKeyDatabase } from '../auth/database-keys-cli.ts';
import { addTransferCommands } from './transfer-commands.ts';
import { addBackupCommands } from './backup-commands.ts';
import { routerCheckCommand } from './router-check.ts';
import { VERSION } from '../version.ts';

export interface ServerActions {
  /** Starts the server; resolves -1 while it runs (the process stays up). */
  serve(): Promise<number>;
  /** Applies the database migrations and resolves the exit code. */
  migrate(): Promise<number>;
  /** Seeds the demo project (undefined: the default one) and resolves the exit code. */
  demo(project: string | undefined): Promise<number>;
  /** Opens the configured database's key table for `weft keys create|list|revoke|rotate`. */
  openKeys: OpenKeyDatabase;
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

  const keys = weft
    .command('keys')
    .description('manage API keys: in the database (create, list, revoke, rotate; DATABASE_URL) or in an auth file (add; AUTH_FILE)');
  const entityOption = () => new Option('--entity <entity...>', 'entities the user may access ("*": every entity, for single-user setups)');
  keys
    .command('create')
    .description(
      'create a key in the database for a user (created if missing; --entity grants more entities), print it once and store only its hash',
    )
    .requiredOption('--user <name>', 'the user the key belongs to')
    .addOption(entityOption())
    .option('--name <label>', 'what the key is for, shown by `keys list` (e.g. "ci")')
    .action(async (opts: { user: string; entity?: string[]; name?: string }) => done(await createKeyCommand(actions.openKeys, opts, io)));
  keys
    .command('list')
    .description("list the database's keys: id (the key's public first characters), user, entities, last use, state; never a secret")
    .option('--user <name>', "only this user's keys")
    .option('--all', 'include revoked keys')
    .option('--json', 'one JSON array on stdout')
    .action(async (opts: { user?: string; all?: boolean; json?: boolean }) => done(await listKeysCommand(actions.openKeys, opts, io)));
  keys
    .command('revoke')
    .description('revoke a database key by its id (from `keys list`): every replica refuses it from its next request')
    .argument('<id>', 'the key id, e.g. weft_AbCdEfGhIjKl')
    .action(async (id: string) => done(await revokeKeyCommand(actions.openKeys, id, io)));
  keys
    .command('rotate')
    .description('replace a database key with a new one for the same user and name, printed once; the old one is revoked')
    .argument('<id>', 'the key id, e.g. weft_AbCdEfGhIjKl')
    .option('--grace <duration>', 'let the old key work for this long (e.g. 15m, 12h, 7d) while clients switch')
    .action(async (id: string, opts: { grace?: string }) => done(await rotateKeyCommand(actions.openKeys, id, opts, io)));
  keys
    .command('add')
    .description(
      'create a key in an auth file for a user (the file and the user are created if missing), print it once and store only its hash',
    )
    .requiredOption('--file <auth.yaml>', 'the auth file')
    .requiredOption('--user <name>', 'the user the key belongs to')
    .addOption(entityOption())
    .action(async (opts: { file: string; user: string; entity?: string[] }) => done(await addKeyCommand(opts, io)));

  addTransferCommands(weft, io, done);

  // `weft backup` and `weft restore` (backup-commands.ts).
  addBackupCommands(weft, io, done);

  const router = weft.command('router').description('the inference router (ROUTER_CONFIG)');
  router
    .command('check')
    .description('validate the router file (exit 1 with its problems) and probe each provider with GET {base_url}/models')
    .option('--config <file>', 'the router file (default: ROUTER_CONFIG)')
    .option('--no-probe', 'validate only; send nothing to the providers')
    .action(async (opts: { config?: string; probe: boolean }) => done(await routerCheckCommand(opts, io)));

  // Every command shares the output and the exit override.
  for (const command of [weft, ...weft.commands, ...keys.commands, ...router.commands]) {
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
