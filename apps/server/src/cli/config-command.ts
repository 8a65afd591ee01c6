// `weft config` (the effective configuration, secrets masked, each value with where it came from)
// and the settings part of `weft serve --help`: both walk the settings table, so neither can miss
// a setting.
import { redactUrl } from '@weft/store';
import type { CliIo } from '../auth/cli.ts';
import { CONFIG_FILE_NAME } from '../config/config-file.ts';
import { SETTINGS, defaultText, yamlKey, type AnySetting, type SettingName } from '../config/settings.ts';
import { loadConfigWithSources } from '../config.ts';
import { columns } from './columns.ts';

const ENTRIES = Object.entries(SETTINGS) as [SettingName, AnySetting][];

/** A URL keeps everything but its password; any other secret is hidden whole. */
export function maskSecret(value: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? redactUrl(value) : '********';
}

/** Every setting with its variable, its weft.yaml key and its default, for `weft serve --help`. */
export function settingsHelp(): string {
  const lines = ENTRIES.map(
    ([, s]) => `  ${s.env}  (${CONFIG_FILE_NAME}: ${yamlKey(s)})  default: ${defaultText(s)}\n      ${s.description}`,
  );
  return [
    '',
    `Settings: environment variables, or keys of ${CONFIG_FILE_NAME} (in the working directory, or named by`,
    '--config <file> or WEFT_CONFIG); the environment wins. `weft config` shows the effective values.',
    ...lines,
    '',
  ].join('\n');
}

/** `weft config`: resolves the exit code (1 with the problems when the configuration is invalid). */
export function configCommand(io: CliIo, env: NodeJS.ProcessEnv = process.env): number {
  let loaded;
  try {
    loaded = loadConfigWithSources(env);
  } catch (err) {
    io.stderr.write(`weft config: ${(err as Error).message}\n`);
    return 1;
  }
  const { config, file, sources } = loaded;
  const rows = ENTRIES.map(([name, s]) => {
    const { text, origin } = sources[name];
    const effective = config[name];
    // Paths and sqlite: URLs as resolved, a computed default as computed; other values as written.
    let shown = typeof effective === 'string' || typeof effective === 'boolean' ? String(effective) : (text ?? 'unset');
    if (s.secret && text !== undefined) shown = maskSecret(shown);
    return [s.env, shown, origin];
  });
  io.stdout.write(`configuration file: ${file ?? `none (no ${CONFIG_FILE_NAME} here, no --config or WEFT_CONFIG)`}\n`);
  io.stdout.write(columns([['SETTING', 'VALUE', 'FROM'], ...rows]));
  return 0;
}
