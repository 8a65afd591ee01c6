// The `weft` command (commander): `weft serve` (also `weft` alone), `weft config`, `weft migrate`,
// `weft demo`, `weft keys …`, with --help on every command and --version, and --config <file> on
// every command that reads the configuration. Usage errors exit 2, as the shells' own commands
// do; output goes through `io` so tests need no subprocess. What each command does lives with its
// subject (server.ts, auth/cli.ts); this file is the command line only.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { addKeyCommand, type CliIo } from '../auth/cli.ts';
import { createKeyCommand, listKeysCommand, revokeKeyCommand, rotateKeyCommand, type OpenKeyDatabase } from '../auth/database-keys-cli.ts';
import { addTransferCommands } from './transfer-commands.ts';
import { addBackupCommands } from './backup-commands.ts';
import { routerCheckCommand } from './router-check.ts';
import { configCommand, settingsHelp } from './config-command.ts';
import { VERSION_LINE } from '../version.ts';
import { parseScopeArgs, type KeyScope } from '../auth/key-scope.ts';

export interface ServerActions {
  /** Starts the server; resolves -1 while it runs (the process stays up). */
  serve(): Promise<number>;
  /** Applies the database migrations (or prints their SQL: dryRun) and resolves the exit code. */
  migrate(opts: { dryRun?: boolean | undefined }): Promise<number>;
  /** Lists the applied and pending migrations and resolves the exit code. */
  migrateStatus(): Promise<number>;
  /** Seeds the demo project (undefined: the default one) and resolves the exit code. */
  demo(project: string | undefined): Promise<number>;
  /** Opens the configured database's key table for `weft keys create|list|revoke|rotate`. */
  openKeys: OpenKeyDatabase;
}

const CONFIG_OPTION = ['--config <file>', 'the configuration file (default: WEFT_CONFIG, else weft.yaml here if there is one)'] as const;

function program(io: CliIo, actions: ServerActions, done: (code: number) => void, env: NodeJS.ProcessEnv): Command {
  const weft = new Command('weft')
    .description('Weft: a self-hostable store for LLM traces, evaluations and RL trajectories.')
    .version(VERSION_LINE)
    .option(...CONFIG_OPTION)
    // Options after a command name are that command's (`router check --config` names the router file).
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) })
    .exitOverride()
    .showHelpAfterError();

  weft
    .command('serve')
    .description(`start the server (configured by the settings below)`)
    .addHelpText('after', settingsHelp())
    .action(async () => done(await actions.serve()));

  weft
    .command('config')
    .description('print the effective configuration (secrets masked) and where each value came from: default, file:line or env')
    .action(() => done(configCommand(io, env)));

  const migrate = weft
    .command('migrate')
    .description('apply the pending database migrations (DATABASE_URL), print what was applied, and exit')
    .option('--dry-run', 'print the SQL the pending migrations would run, and run nothing')
    .action(async (opts: { dryRun?: boolean }) => done(await actions.migrate({ dryRun: opts.dryRun })));
  migrate
    .command('status')
    .description("list this version's migrations: applied (when) or pending")
    .action(async () => done(await actions.migrateStatus()));

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
    .addOption(scopeOption())
    .addOption(readOnlyOption())
    .action(async (opts: { user: string; entity?: string[]; name?: string; scope: string[]; readOnly?: boolean }) =>
      done(await createKeyCommand(actions.openKeys, { ...opts, scope: keyScopeOf(opts) }, io)),
    );
  keys
    .command('list')
    .description("list the database's keys: id (the key's public first characters), user, entities, scope, last use, state; never a secret")
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
    .addOption(scopeOption('the file keeps one scope per user, for all of its keys'))
    .addOption(readOnlyOption())
    .action(async (opts: { file: string; user: string; entity?: string[]; scope: string[]; readOnly?: boolean }) =>
      done(await addKeyCommand({ ...opts, scope: keyScopeOf(opts) }, io)),
    );

  addTransferCommands(weft, io, done, env);

  // `weft backup` and `weft restore` (backup-commands.ts).
  addBackupCommands(weft, io, done);

  const router = weft.command('router').description('the inference router (ROUTER_CONFIG)');
  router
    .command('check')
    .description('validate the router file (exit 1 with its problems) and probe each provider with GET {base_url}/models')
    .option('--config <file>', 'the router file (default: ROUTER_CONFIG)')
    .option('--no-probe', 'validate only; send nothing to the providers')
    .action(async (opts: { config?: string; probe: boolean }) => done(await routerCheckCommand(opts, io)));

  // Every command shares the output and the exit override; those that read the configuration take
  // --config too (router check's own --config names the router file).
  const configured = new Set<Command>();
  for (const command of [weft, ...weft.commands, ...migrate.commands, ...keys.commands, ...router.commands]) {
    command.configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
    command.exitOverride();
    if (command !== weft && command.commands.length === 0 && command.parent !== router && command.name() !== 'add') {
      command.option(...CONFIG_OPTION);
      configured.add(command);
    }
  }
  if (migrate.commands.length > 0 && !configured.has(migrate)) {
    migrate.option(...CONFIG_OPTION);
    configured.add(migrate);
  }
  // --config <file> is WEFT_CONFIG for this run: every command reads the configuration through it.
  weft.hook('preAction', (_weft, action) => {
    const file =
      (configured.has(action) ? action.opts<{ config?: string }>().config : undefined) ?? weft.opts<{ config?: string }>().config;
    if (file !== undefined) env.WEFT_CONFIG = file;
  });
  return weft;
}

/** Runs `weft <argv>`; resolves the exit code, or -1 while the server runs. */
export async function runWeft(argv: string[], io: CliIo, actions: ServerActions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let code = 0;
  try {
    // `weft` alone serves (not a commander default command: `weft bogus` must be an unknown command).
    await program(io, actions, (c) => (code = c), env).parseAsync(argv.length === 0 ? ['serve'] : argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // --help and --version end here with code 0; a usage error with its message already written.
    const shown = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    return shown && err.exitCode === 0 ? 0 : 2;
  }
  return code;
}

/** `--scope`, repeatable: a level for every entity and levels for named ones, checked as typed (a usage error). */
function scopeOption(note?: string): Option {
  return new Option(
    '--scope <level>',
    'what the key may do: read (queries and reads), write (also creates, updates, deletes), admin (everything); ' +
      `<entity>=<level> sets it for one entity (repeat the option: --scope read --scope acme=write)${note ? `; ${note}` : ''}`,
  )
    .argParser((value: string, previous: string[]) => {
      const all = [...previous, value];
      try {
        parseScopeArgs(all);
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
      return all;
    })
    .default([], 'admin');
}

function readOnlyOption(): Option {
  return new Option('--read-only', 'the same as --scope read: for a dashboard, a CI job that only queries, a reviewer').conflicts('scope');
}

/** Undefined when neither option was given: a new key's default (admin), or an auth file user's own scope. */
function keyScopeOf(opts: { scope: string[]; readOnly?: boolean | undefined }): KeyScope | undefined {
  if (opts.readOnly) return { scope: 'read' };
  return opts.scope.length === 0 ? undefined : parseScopeArgs(opts.scope);
}
