// Every setting of the server, declared once: its environment variable, its type, its default and
// what it means. Loading (config.ts), `weft config` and `weft serve --help` are all derived from
// this table, so adding a setting is adding one entry here. Its key in weft.yaml is the variable's
// name in lower case (PORT → port, RATE_LIMIT_INGEST → rate_limit_ingest).
import { fileURLToPath } from 'node:url';
import * as t from './setting-types.ts';

/** A default that depends on where the server runs; `text` is what help and `weft config` show. */
export interface ComputedDefault<T> {
  text: string;
  value: (env: NodeJS.ProcessEnv) => T;
}

export interface Setting<T, D> {
  env: string;
  type: t.SettingType<T>;
  /** Text parsed by `type` as if it had been set; undefined: unset unless configured. */
  default: D;
  description: string;
  /** Shown masked by `weft config` (a URL's password; any other secret whole). */
  secret?: boolean;
}

const setting = <T, const D extends string | ComputedDefault<T> | undefined>(s: Setting<T, D>) => s;

// apps/server/{src,dist}/config/settings.* → apps/web/dist: the same levels from the sources and the build.
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SETTINGS = {
  port: setting({ env: 'PORT', type: t.integer(0, 65535), default: '8080', description: 'listening port (0 picks a free one)' }),
  host: setting({
    env: 'HOST',
    type: t.text,
    default: '127.0.0.1',
    description: 'listening address (0.0.0.0: every interface, e.g. in a container or behind a proxy on another host)',
  }),
  databaseUrl: setting({
    env: 'DATABASE_URL',
    type: t.databaseUrl,
    default: undefined,
    secret: true,
    description: 'sqlite:PATH, sqlite::memory: or postgres://user@host:5432/db (unset: DATA_DIR/weft.sqlite)',
  }),
  dataDir: setting({
    env: 'DATA_DIR',
    type: t.path,
    default: './data',
    description: 'where the default SQLite file and the local auth file live',
  }),
  authFile: setting({
    env: 'AUTH_FILE',
    type: t.path,
    default: undefined,
    description: 'YAML file of users, entities and hashed keys (unset: the local key)',
  }),
  modelsFile: setting({
    env: 'MODELS_FILE',
    type: t.path,
    default: undefined,
    description: 'model catalogue (packages/core/catalogue/models.json format; unset: the shipped one)',
  }),
  logLevel: setting({ env: 'LOG_LEVEL', type: t.oneOf(LOG_LEVELS), default: 'info', description: `${LOG_LEVELS.join(', ')}` }),
  logFormat: setting({
    env: 'LOG_FORMAT',
    type: t.oneOf(['auto', 'json', 'pretty'] as const),
    default: 'auto',
    description: 'json: a JSON line per event; pretty: one short coloured line per request; auto: pretty on a terminal, else json',
  }),
  bodyLimit: setting({ env: 'BODY_LIMIT', type: t.size, default: '32mb', description: 'largest request body (413 above it)' }),
  // ART sends whole conversations with logprobs in one request, so the log route has its own limit.
  logBodyLimit: setting({
    env: 'LOG_BODY_LIMIT',
    type: t.size,
    default: '256mb',
    description: 'largest body of the trajectory log operation',
  }),
  validateResponses: setting({
    env: 'VALIDATE_RESPONSES',
    type: t.boolean,
    default: { text: 'true unless NODE_ENV=production', value: (env) => env.NODE_ENV !== 'production' },
    description: 'validate every response against the spec (a handler that drifts from it answers 500)',
  }),
  headersTimeoutMs: setting({
    env: 'HEADERS_TIMEOUT',
    type: t.duration(),
    default: '20s',
    description: "time for a request's headers; a connection that sends nothing is closed after it",
  }),
  requestTimeoutMs: setting({
    env: 'REQUEST_TIMEOUT',
    type: t.duration(),
    default: '60s',
    description: 'the deadline of every request, from its arrival to the last byte of its answer',
  }),
  idleTimeoutMs: setting({
    env: 'IDLE_TIMEOUT',
    type: t.duration(),
    default: '65s',
    description: 'a kept-alive connection idle this long is closed',
  }),
  maxConnections: setting({
    env: 'MAX_CONNECTIONS',
    type: t.integer(1, Number.MAX_SAFE_INTEGER),
    default: '10000',
    description: 'open connections at most; more are closed at once',
  }),
  shutdownTimeoutMs: setting({
    env: 'SHUTDOWN_TIMEOUT',
    type: t.duration(),
    default: '30s',
    description: 'on SIGTERM/SIGINT, how long requests in flight may take to finish',
  }),
  rateLimitIngest: setting({
    env: 'RATE_LIMIT_INGEST',
    type: t.rateLimit,
    default: undefined,
    description: 'per API key, writes (x-weft-rate-class: ingest), e.g. 100/s, 6000/m, 50000/h (unset: off)',
  }),
  rateLimitQuery: setting({
    env: 'RATE_LIMIT_QUERY',
    type: t.rateLimit,
    default: undefined,
    description: 'per API key, every other operation that takes a key (unset: off)',
  }),
  redisUrl: setting({
    env: 'REDIS_URL',
    type: t.redisUrl,
    default: undefined,
    secret: true,
    description: 'redis://host:6379: rate limits and router limits shared by every replica (unset: each process limits alone)',
  }),
  routerConfigFile: setting({
    env: 'ROUTER_CONFIG',
    type: t.path,
    default: undefined,
    description: "the inference router's provider file (YAML; unset: no router)",
  }),
  routerWatchDebounceMs: setting({
    env: 'ROUTER_CONFIG_WATCH',
    type: t.duration(true),
    default: '250ms',
    description: 'wait after the last change of the router file before reloading it; 0: not watched (SIGHUP only)',
  }),
  webDir: setting({
    env: 'WEB_DIR',
    type: t.path,
    default: { text: 'apps/web/dist', value: () => DEFAULT_WEB_DIR },
    description: "Weft Studio's built files, served at /",
  }),
  retentionSweepIntervalMs: setting({
    env: 'RETENTION_SWEEP_INTERVAL',
    type: t.duration(true),
    default: '1m',
    description: 'time between two retention sweeps (expired calls, their feedback, unreferenced files); 0: no sweeper',
  }),
  judgeConcurrency: setting({
    env: 'JUDGE_CONCURRENCY',
    type: t.integer(0, 64),
    default: '4',
    description: 'LLM-as-judge requests (calls/score, monitors) one server sends to the router at once; 0: this server judges nothing',
  }),
  judgePollIntervalMs: setting({
    env: 'JUDGE_POLL_INTERVAL',
    type: t.duration(false),
    default: '1s',
    description: 'how often an idle judge looks for queued judgements',
  }),
  monitorScanIntervalMs: setting({
    env: 'MONITOR_SCAN_INTERVAL',
    type: t.duration(true),
    default: '5s',
    description: "time between two looks of the monitors at their projects' new calls; 0: no monitors run here",
  }),
  retentionFileGraceMs: setting({
    env: 'RETENTION_FILE_GRACE',
    type: t.duration(true),
    default: '60m',
    description: 'how long the files an expired call referenced wait before they are checked and deleted; 0: at the next sweep',
  }),
  corsOrigins: setting({
    env: 'CORS_ORIGINS',
    type: t.corsOrigins,
    default: '',
    description:
      'comma-separated exact origins a browser app may call from, with credentials; * alone: any origin, without (unset: no CORS)',
  }),
  trustProxy: setting({
    env: 'TRUST_PROXY',
    type: t.trustProxy,
    default: 'false',
    description:
      "proxies whose X-Forwarded-For is believed: a hop count, or addresses, CIDRs, loopback, linklocal, uniquelocal (Express's trust proxy)",
  }),
};

export type SettingName = keyof typeof SETTINGS;
export type AnySetting = Setting<unknown, string | ComputedDefault<unknown> | undefined>;

type ValueOf<S> = S extends Setting<infer T, infer D> ? (D extends undefined ? T | undefined : T) : never;
export type SettingValues = { -readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };

export const yamlKey = (s: { env: string }) => s.env.toLowerCase();

/** What help and `weft config` show as the default. */
export const defaultText = (s: AnySetting) =>
  s.default === undefined ? 'unset' : typeof s.default === 'string' ? s.default : s.default.text;
