// The kinds of value a setting holds. Each parses the same text from the environment and from
// weft.yaml (a YAML number or boolean is read as the text it was written as), so a value means the
// same wherever it is set; a failure is the phrase that completes "<SETTING> must be …".
import { isAbsolute, resolve } from 'node:path';
import proxyaddr from 'proxy-addr';
import { parseRateLimit, type RateLimit } from '../http/rate-limit.ts';

export interface SettingType<T> {
  /** The value, or `{ problem }` completing "must be …". `base`: the directory relative paths mean. */
  parse(text: string, base: string): T | { problem: string };
}

export const isProblem = (v: unknown): v is { problem: string } => typeof v === 'object' && v !== null && 'problem' in v;

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses "32mb", "512kb", "1048576" into bytes. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text);
  if (!m) return undefined;
  const bytes = Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]!);
  return bytes > 0 ? bytes : undefined;
}

/** Parses "30s", "500ms", "2m" or "1500" (milliseconds) into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(text);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()]!);
  return ms > 0 ? ms : undefined;
}

const absolute = (path: string, base: string) => (isAbsolute(path) ? path : resolve(base, path));

export const text: SettingType<string> = { parse: (t) => t };

export const path: SettingType<string> = { parse: (t, base) => absolute(t, base) };

export const integer = (min: number, max: number): SettingType<number> => ({
  parse: (t) => {
    const n = Number(t);
    return /^\s*\d+\s*$/.test(t) && n >= min && n <= max ? n : { problem: `an integer from ${min} to ${max}` };
  },
});

export const size: SettingType<number> = {
  parse: (t) => parseByteSize(t) ?? { problem: 'a size like 32mb, 512kb or 1048576' },
};

/** `orZero`: 0 is allowed and means "off" (retention, watching). */
export const duration = (orZero = false): SettingType<number> => ({
  parse: (t) => {
    if (orZero && /^\s*0+(\.0+)?\s*(ms|s|m)?\s*$/i.test(t)) return 0;
    return parseDuration(t) ?? { problem: `a duration like 30s, 500ms, 2m or 1500${orZero ? ', or 0' : ''}` };
  },
});

export const oneOf = <const V extends string>(values: readonly V[]): SettingType<V> => ({
  parse: (t) => {
    const v = t.toLowerCase();
    return (values as readonly string[]).includes(v) ? (v as V) : { problem: `one of ${values.join(', ')}` };
  },
});

export const boolean: SettingType<boolean> = {
  parse: (t) => {
    const v = t.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    return { problem: 'true or false (or 1 or 0)' };
  },
};

export const rateLimit: SettingType<RateLimit> = {
  parse: (t) => parseRateLimit(t) ?? { problem: 'like 100/s, 6000/m or 50000/h' },
};

export const redisUrl: SettingType<string> = {
  parse: (t) => (/^rediss?:\/\//.test(t) ? t : { problem: 'redis://host:port' }),
};

/** sqlite:PATH (PATH made absolute against `base`), sqlite::memory: or postgres://…. */
export const databaseUrl: SettingType<string> = {
  parse: (t, base) => {
    if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(t)) return { problem: 'sqlite:PATH, sqlite::memory: or postgres://…' };
    if (!t.startsWith('sqlite:') || t === 'sqlite::memory:') return t;
    return `sqlite:${absolute(t.slice('sqlite:'.length), base)}`;
  },
};

/** Exact origins a browser app may call from; `*` alone: any origin, never with credentials (http/cors.ts). */
export const corsOrigins: SettingType<readonly string[]> = {
  parse: (t) => {
    const origins = t
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    // A list with `*` in it would be read as "any origin, with credentials", which CORS forbids.
    if (origins.includes('*')) return origins.length > 1 ? { problem: '`*` alone (any origin, no credentials), not in a list' } : ['*'];
    // A browser's Origin has no path, no trailing slash and a lower-case host: anything else never matches.
    const bad = origins.find((origin) => URL.canParse(origin) === false || new URL(origin).origin !== origin);
    return bad === undefined
      ? origins
      : { problem: `exact origins like https://app.example.com or http://localhost:5173 ("${bad}" is not one)` };
  },
};

/** Off unless set: X-Forwarded-For is anyone's to write unless a proxy we trust wrote it. */
export const trustProxy: SettingType<number | string | false> = {
  parse: (t) => {
    const text = t.trim();
    if (text === '' || text === '0' || text === 'false') return false;
    if (/^\d+$/.test(text)) return Number(text);
    const parts = text.split(',').map((p) => p.trim());
    try {
      // What Express does with the same value: an address it cannot read is refused at start.
      proxyaddr.compile(parts);
    } catch (err) {
      return {
        problem: `a hop count (1) or a comma list of addresses, CIDRs, loopback, linklocal or uniquelocal (${(err as Error).message})`,
      };
    }
    return parts.join(',');
  },
};
