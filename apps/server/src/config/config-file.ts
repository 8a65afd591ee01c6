// weft.yaml: a flat mapping of settings (their variables' names in lower case) to values. Read with
// the `yaml` package's line counter, as the router file is, so every problem names its line; a key
// that is not a setting is an error, never ignored.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';

export const CONFIG_FILE_NAME = 'weft.yaml';

export interface FileValue {
  text: string;
  /** `file:line` where the value was written. */
  at: string;
}

export interface ConfigFile {
  path: string;
  values: Map<string, FileValue>;
  problems: string[];
}

/**
 * The file to read: WEFT_CONFIG (which `--config` sets) or weft.yaml in the directory the command
 * was run in; undefined when neither is there. A named file that does not exist is a problem.
 */
export function configFilePath(env: NodeJS.ProcessEnv, cwd: string): string | { problem: string } | undefined {
  if (env.WEFT_CONFIG) {
    const named = isAbsolute(env.WEFT_CONFIG) ? env.WEFT_CONFIG : resolve(cwd, env.WEFT_CONFIG);
    return existsSync(named) ? named : { problem: `${named}: no such configuration file (named by --config or WEFT_CONFIG)` };
  }
  const found = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(found) ? found : undefined;
}

export function readConfigFile(path: string, known: ReadonlySet<string>): ConfigFile {
  const values = new Map<string, FileValue>();
  const problems: string[] = [];
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const at = (offset: number | undefined) => {
    const { line, col } = lines.linePos(offset ?? 0);
    return `${path}:${Math.max(line, 1)}:${col}`;
  };
  for (const e of [...doc.errors, ...doc.warnings]) problems.push(`${at(e.pos[0])}: YAML: ${e.message.split('\n')[0]}`);
  if (problems.length > 0) return { path, values, problems };
  const root = doc.contents as Node | null;
  if (root === null) return { path, values, problems }; // an empty file sets nothing
  if (!isMap(root)) return { path, values, problems: [`${at(root.range?.[0])}: expected a mapping of settings (port: 8080)`] };
  for (const pair of root.items) {
    const key = pair.key as Node | null;
    const name = isScalar(key) ? String(key.value) : undefined;
    if (name === undefined || !known.has(name)) {
      problems.push(`${at(key?.range?.[0])}: unknown setting "${name ?? '?'}" (weft serve --help lists them)`);
      continue;
    }
    const value = pair.value as Node | null;
    // A scalar's text as written: `port: 8080` and `port: "8080"` both mean "8080".
    if (!isScalar(value) || value.value === null) {
      problems.push(`${at(value?.range?.[0] ?? key?.range?.[0])}: ${name} must be a single value`);
      continue;
    }
    const text = typeof value.source === 'string' ? value.source : JSON.stringify(value.value);
    const { line } = lines.linePos(value.range?.[0] ?? 0);
    values.set(name, { text, at: `${path}:${line}` });
  }
  return { path, values, problems };
}
