// Parses the database URL into what to open. Error messages never echo the URL itself: a
// PostgreSQL URL may carry a password.
import { join } from 'node:path';

export type DatabaseTarget = { kind: 'sqlite'; /** a file path, or ':memory:' */ path: string } | { kind: 'postgres'; url: string };

export const ACCEPTED_DATABASE_URL_FORMS =
  'unset (SQLite file <dataDir>/weft.sqlite), "sqlite:PATH", "sqlite::memory:", ' +
  '"postgres://user@host:port/database" or "postgresql://…"';

/** An unset or blank URL means the default SQLite file: an empty env var counts as unset. */
export function parseDatabaseUrl(url: string | undefined, dataDir = './data'): DatabaseTarget {
  if (url === undefined || url.trim() === '') {
    return { kind: 'sqlite', path: join(dataDir, 'weft.sqlite') };
  }
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    if (rest === ':memory:') return { kind: 'sqlite', path: ':memory:' };
    if (rest === '') {
      throw new Error(`Invalid database URL "sqlite:": a path is missing. Accepted forms: ${ACCEPTED_DATABASE_URL_FORMS}`);
    }
    // "sqlite://name" reads like a host name and would silently become "/name".
    if (rest.startsWith('//') && !rest.startsWith('///')) {
      throw new Error(
        'Invalid database URL "sqlite://…": write "sqlite:relative/path" or "sqlite:/absolute/path". ' +
          `Accepted forms: ${ACCEPTED_DATABASE_URL_FORMS}`,
      );
    }
    return { kind: 'sqlite', path: rest };
  }
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(
    `Unsupported database URL (${scheme ? `scheme "${scheme}:"` : 'no scheme'}). ` + `Accepted forms: ${ACCEPTED_DATABASE_URL_FORMS}`,
  );
}

export interface PgTargetDescription {
  host: string;
  port: string;
  database: string;
  user: string;
  /** Present only so callers can scrub it from messages; never print it. */
  password: string;
}

/** Where a PostgreSQL URL points, for error messages. Mirrors pg's defaults for missing parts. */
export function describePgTarget(url: string, env: NodeJS.ProcessEnv = process.env): PgTargetDescription {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('Invalid PostgreSQL URL (not shown: it may contain a password)');
  }
  const user = decodeURIComponent(u.username) || env.PGUSER || env.USER || '';
  return {
    host: decodeURIComponent(u.hostname) || u.searchParams.get('host') || env.PGHOST || 'localhost',
    port: u.port || env.PGPORT || '5432',
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || env.PGDATABASE || user,
    user,
    password: decodeURIComponent(u.password),
  };
}

/** The URL with its password replaced, for logs and test messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
