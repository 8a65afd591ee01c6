// Configuration, read once at start from the settings table (config/settings.ts): each setting's
// default, then weft.yaml (or the file named by --config / WEFT_CONFIG), then the environment,
// which wins. Every problem is reported at once and the server refuses to start: a typo in PORT
// must not become a server on the wrong port.
import { dirname } from 'node:path';
import type { RateLimits } from './http/rate-limit.ts';
import { configFilePath, readConfigFile } from './config/config-file.ts';
import { isProblem } from './config/setting-types.ts';
import { SETTINGS, yamlKey, type AnySetting, type SettingName, type SettingValues } from './config/settings.ts';

export { parseByteSize, parseDuration } from './config/setting-types.ts';

export type Config = SettingValues & {
  /** Per API key and class of operations (RATE_LIMIT_INGEST, RATE_LIMIT_QUERY); unset classes are not limited. */
  rateLimits: RateLimits;
};

export class ConfigError extends Error {}

/** Where a setting's value came from: `default`, `env` or `file:line`. */
export type Origin = string;

export interface LoadedConfig {
  config: Config;
  /** The configuration file read, if any. */
  file: string | undefined;
  /** Per setting: the text it was given (undefined: unset) and where from. */
  sources: Record<SettingName, { text: string | undefined; origin: Origin }>;
}

const ENTRIES = Object.entries(SETTINGS) as [SettingName, AnySetting][];
const KNOWN_KEYS: ReadonlySet<string> = new Set(ENTRIES.map(([, s]) => yamlKey(s)));

export function loadConfigWithSources(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const problems: string[] = [];
  // Relative paths mean the directory the user ran the command in: the root scripts pass it as
  // WEFT_CWD, because turbo and pnpm run the server from apps/server. In weft.yaml they mean the
  // file's directory, so a file names its neighbours wherever it is run from.
  const cwd = env.WEFT_CWD || process.cwd();
  const found = configFilePath(env, cwd);
  const file = isProblem(found) ? undefined : found;
  if (isProblem(found)) problems.push(found.problem);
  const fromFile = file ? readConfigFile(file, KNOWN_KEYS) : undefined;
  problems.push(...(fromFile?.problems ?? []));

  const values: Record<string, unknown> = {};
  const sources = {} as LoadedConfig['sources'];
  for (const [name, s] of ENTRIES) {
    const fileValue = fromFile?.values.get(yamlKey(s));
    const given = env[s.env]
      ? { text: env[s.env]!, origin: 'env', base: cwd }
      : fileValue && { ...fileValue, origin: fileValue.at, base: dirname(file!) };
    if (given) {
      const value = s.type.parse(given.text, given.base);
      const where = given.origin === 'env' ? s.env : `${given.origin}: ${yamlKey(s)}`;
      if (isProblem(value)) problems.push(`${where} must be ${value.problem}, got "${given.text}"`);
      values[name] = value;
      sources[name] = { text: given.text, origin: given.origin };
    } else if (typeof s.default === 'string') {
      values[name] = s.type.parse(s.default, cwd);
      sources[name] = { text: s.default, origin: 'default' };
    } else {
      values[name] = s.default?.value(env);
      sources[name] = { text: s.default?.text, origin: 'default' };
    }
  }
  const config = values as SettingValues;
  if (config.requestTimeoutMs > 0 && config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push('HEADERS_TIMEOUT must not exceed REQUEST_TIMEOUT');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  const rateLimits: RateLimits = {};
  if (config.rateLimitIngest) rateLimits.ingest = config.rateLimitIngest;
  if (config.rateLimitQuery) rateLimits.query = config.rateLimitQuery;
  return { config: { ...config, rateLimits }, file, sources };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfigWithSources(env).config;
}
