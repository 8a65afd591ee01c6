// `weft keys add`: creates a key in an auth file and prints it once. The command line itself is
// cli/program.ts; output goes through `io` so tests need no subprocess.
import { resolve } from 'node:path';
import { addApiKey } from './add-key-command.ts';
import type { KeyScope } from './key-scope.ts';

export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** `weft keys add` (its options parsed by cli/program.ts): resolves the exit code. */
export async function addKeyCommand(
  values: { file: string; user: string; entity?: string[] | undefined; scope?: KeyScope | undefined },
  io: CliIo,
): Promise<number> {
  let result;
  try {
    // Relative to where the user ran the command (the root scripts pass it as WEFT_CWD).
    const file = resolve(process.env.WEFT_CWD || process.cwd(), values.file);
    result = addApiKey({ file, username: values.user, entities: values.entity ?? [], scope: values.scope });
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
