// Configuration from the environment, read once at start. Every problem is reported at once and
// the server refuses to start: a typo in PORT must not become a server on the wrong port.
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyaddr from 'proxy-addr';
import { parseRateLimit, type RateLimits } from './http/rate-limit.ts';

export interface Config {
  port: number;
  host: string;
  /** Unset: a SQLite file under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  authFile: string | undefined;
  modelsFile: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Body limit in bytes for every operation but the trajectory log. */
  bodyLimit: number;
  /** ART sends whole conversations with logprobs in one request, so the log route gets its own limit. */
  logBodyLimit: number;
  /** Validate responses against the spec (on in dev and tests; a bug there answers 500). */
  validateResponses: boolean;
  /** Time allowed for a request's headers; a connection that sends nothing is closed after it. */
  headersTimeoutMs: number;
  /**
   * The deadline of every request, from its arrival to its answer's last byte: receiving the
   * body, waiting for the database and every statement, writing the answer (http/deadline.ts).
   */
  requestTimeoutMs: number;
  /** A connection idle this long (no request in flight, nothing sent) is closed. */
  idleTimeoutMs: number;
  /** Open connections at most; more are refused until one closes. */
  maxConnections: number;
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before they are cut. */
  shutdownTimeoutMs: number;
  /** Per API key and class of operations; unset classes are not limited. */
  rateLimits: RateLimits;
  /** Shared state (rate limits) for every replica; unset: each process limits alone. */
  redisUrl: string | undefined;
  /** The router file (ROUTER_CONFIG): providers and models of the inference router; unset: no router. */
  routerConfigFile: string | undefined;
  /** Wait after the last change of the router file before reloading it; 0: not watched (SIGHUP only). */
  routerWatchDebounceMs: number;
  /** Weft Studio's built files (apps/web/dist by default), served at `/`. */
  webDir: string;
  /** Time between two retention sweeps (expired calls, their feedback, unreferenced files); 0: no sweeper. */
  retentionSweepIntervalMs: number;
  /** How long a file an expired call referenced waits before the sweeper checks and deletes it. */
  retentionFileGraceMs: number;
  /**
   * CORS_ORIGINS (default: none, no CORS headers): exact origins a browser app may call from;
   * `*` alone allows any origin, without credentials (http/cors.ts).
   */
  corsOrigins: readonly string[];
  /**
   * TRUST_PROXY (default: off): Express's `trust proxy` — a hop count, or a comma list of addresses,
   * CIDRs and `loopback`/`linklocal`/`uniquelocal`; then X-Forwarded-For gives the client address.
   */
  trustProxy: number | string | false;
}

// apps/server/{src,dist}/config.* → apps/web/dist: the same two levels from the sources and the build.
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

export class ConfigError extends Error {}

/** Parses "32mb", "512kb", "1048576" into bytes. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!m) return undefined;
  const bytes = Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
  return bytes > 0 ? bytes : undefined;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses "30s", "500ms", "2m" or "1500" (milliseconds) into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(text);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()]!);
  return ms > 0 ? ms : undefined;
}

/**
 * Relative paths mean the directory the user ran the command in: the root scripts pass it as
 * WEFT_CWD, because turbo and pnpm run the server from apps/server.
 */
function pathResolver(env: NodeJS.ProcessEnv): (path: string) => string {
  const base = env.WEFT_CWD || process.cwd();
  return (path) => (isAbsolute(path) ? path : resolve(base, path));
}

function resolveDatabaseUrl(url: string | undefined, abs: (path: string) => string): string | undefined {
  if (!url?.startsWith('sqlite:') || url === 'sqlite::memory:') return url;
  return `sqlite:${abs(url.slice('sqlite:'.length))}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const abs = pathResolver(env);
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const size = (name: string, fallback: string): number => {
    const value = env[name] || fallback;
    const bytes = parseByteSize(value);
    if (bytes === undefined) problems.push(`${name} must be a size like 32mb, 512kb or 1048576, got "${value}"`);
    return bytes ?? 0;
  };
  const duration = (name: string, fallback: string): number => {
    const value = env[name] || fallback;
    const ms = parseDuration(value);
    if (ms === undefined) problems.push(`${name} must be a duration like 30s, 500ms, 2m or 1500, got "${value}"`);
    return ms ?? 0;
  };
  // Retention: 0 is allowed (no sweeper; no grace), so these do not go through duration().
  const durationOrZero = (name: string, fallback: string): number => {
    const value = env[name] || fallback;
    if (/^\s*0+(\.0+)?\s*(ms|s|m)?\s*$/i.test(value)) return 0;
    const ms = parseDuration(value);
    if (ms === undefined) problems.push(`${name} must be a duration like 30s, 500ms, 2m or 1500, or 0, got "${value}"`);
    return ms ?? 0;
  };
  const routerWatchDebounceMs = durationOrZero('ROUTER_CONFIG_WATCH', '250ms');
  const retentionSweepIntervalMs = durationOrZero('RETENTION_SWEEP_INTERVAL', '1m');
  const retentionFileGraceMs = durationOrZero('RETENTION_FILE_GRACE', '60m');
  const headersTimeoutMs = duration('HEADERS_TIMEOUT', '20s');
  const requestTimeoutMs = duration('REQUEST_TIMEOUT', '60s');
  const idleTimeoutMs = duration('IDLE_TIMEOUT', '65s');
  const shutdownTimeoutMs = duration('SHUTDOWN_TIMEOUT', '30s');
  const maxConnections = env.MAX_CONNECTIONS ? Number(env.MAX_CONNECTIONS) : 10_000;
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    problems.push(`MAX_CONNECTIONS must be a positive integer, got "${env.MAX_CONNECTIONS}"`);
  }
  if (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT must not exceed REQUEST_TIMEOUT');
  const rateLimits: RateLimits = {};
  for (const [name, rateClass] of [
    ['RATE_LIMIT_INGEST', 'ingest'],
    ['RATE_LIMIT_QUERY', 'query'],
  ] as const) {
    const value = env[name];
    if (!value) continue;
    const limit = parseRateLimit(value);
    if (limit) rateLimits[rateClass] = limit;
    else problems.push(`${name} must look like 100/s, 6000/m or 50000/h, got "${value}"`);
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push(`REDIS_URL must be redis://host:port, got "${redisUrl}"`);
  const bodyLimit = size('BODY_LIMIT', '32mb');
  const logBodyLimit = size('LOG_BODY_LIMIT', '256mb');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be sqlite:PATH, sqlite::memory: or postgres://…');
  }
  const corsOrigins = parseCorsOrigins(env.CORS_ORIGINS, problems);
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, problems);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: resolveDatabaseUrl(databaseUrl, abs),
    dataDir: abs(env.DATA_DIR || './data'),
    authFile: env.AUTH_FILE ? abs(env.AUTH_FILE) : undefined,
    modelsFile: env.MODELS_FILE ? abs(env.MODELS_FILE) : undefined,
    logLevel: logLevel as Config['logLevel'],
    bodyLimit,
    logBodyLimit,
    validateResponses: env.VALIDATE_RESPONSES
      ? env.VALIDATE_RESPONSES !== '0' && env.VALIDATE_RESPONSES !== 'false'
      : env.NODE_ENV !== 'production',
    headersTimeoutMs,
    requestTimeoutMs,
    idleTimeoutMs,
    maxConnections,
    shutdownTimeoutMs,
    rateLimits,
    redisUrl,
    routerConfigFile: env.ROUTER_CONFIG ? abs(env.ROUTER_CONFIG) : undefined,
    routerWatchDebounceMs,
    webDir: env.WEB_DIR ? abs(env.WEB_DIR) : DEFAULT_WEB_DIR,
    retentionSweepIntervalMs,
    retentionFileGraceMs,
    corsOrigins,
    trustProxy,
  };
}

/** Exact origins (`scheme://host[:port]`, as a browser sends them), or `*` alone. */
function parseCorsOrigins(value: string | undefined, problems: string[]): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  if (origins.includes('*')) {
    // A list with `*` in it would be read as "any origin, with credentials", which CORS forbids.
    if (origins.length > 1) problems.push('CORS_ORIGINS: `*` (any origin, no credentials) must stand alone');
    return ['*'];
  }
  for (const origin of origins) {
    let exact: string | undefined;
    try {
      exact = new URL(origin).origin;
    } catch {
      exact = undefined;
    }
    // A browser's Origin has no path, no trailing slash and a lower-case host: anything else never matches.
    if (exact !== origin) problems.push(`CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com or http://localhost:5173`);
  }
  return origins;
}

/** Off by default: X-Forwarded-For is anyone's to write unless a proxy we trust wrote it. */
function parseTrustProxy(value: string | undefined, problems: string[]): number | string | false {
  const text = (value ?? '').trim();
  if (text === '' || text === '0' || text === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const parts = text.split(',').map((p) => p.trim());
  try {
    // What Express does with the same value: an address it cannot read is refused here, at start.
    proxyaddr.compile(parts);
  } catch (err) {
    problems.push(
      `TRUST_PROXY must be a hop count (1) or a comma list of addresses, CIDRs, loopback, linklocal or uniquelocal: ${(err as Error).message} in "${value}"`,
    );
  }
  return parts.join(',');
}
