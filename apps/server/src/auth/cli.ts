/**
 * `weft keys ...` command dispatcher. The server's main entry hands over the
 * arguments after `keys` (a leading `keys` is tolerated too) and exits with
 * the returned code. Output goes through `io` so tests need no subprocess.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addApiKey } from './add-key-command.ts';

export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

const USAGE = `Usage:
  weft keys add --file <auth.yaml> --user <name> [--entity <entity>]...

Creates the file and the user if missing (--entity is then required; "*"
means every entity, for single-user setups), stores the SHA-256 hash of a
new API key, and prints the key once.
`;

export async function runKeysCommand(argv: string[], io: CliIo): Promise<number> {
  const args = argv[0] === 'keys' ? argv.slice(1) : argv;
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    (command === undefined ? io.stderr : io.stdout).write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'add') {
    io.stderr.write(`Unknown keys command "${command}".\n${USAGE}`);
    return 2;
  }
  return runAdd(rest, io);
}

async function runAdd(argv: string[], io: CliIo): Promise<number> {
  let values: { file?: string; user?: string; entity?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        file: { type: 'string' },
        user: { type: 'string' },
        entity: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (!values.file || !values.user) {
    io.stderr.write(`keys add needs --file and --user.\n${USAGE}`);
    return 2;
  }

  let result;
  try {
    // Relative to where the user ran the command (the root scripts pass it as WEFT_CWD).
    const file = resolve(process.env.WEFT_CWD || process.cwd(), values.file);
    result = addApiKey({ file, username: values.user, entities: values.entity ?? [] });
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }

  const notes: string[] = [];
  if (result.createdFile) notes.push(`Created ${values.file}.`);
  if (result.createdUser) notes.push(`Added user "${values.user}".`);
  if (result.grantedEntities.length > 0) {
    notes.push(`Granted "${values.user}" access to: ${result.grantedEntities.join(', ')}.`);
  }
  // The key alone on stdout keeps `KEY=$(weft keys add ...)` working; the
  // human-facing notes go to stderr, which a terminal shows alongside it.
  io.stdout.write(`${result.key}\n`);
  io.stderr.write(
    `${[...notes, `New API key for "${values.user}" printed above. Store it now: it will not be shown again (only its hash is kept in ${values.file}).`].join('\n')}\n`,
  );
  return 0;
}
