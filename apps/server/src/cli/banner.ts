// What `weft serve` prints on a terminal once it listens: where the API, its readiness and its
// metrics are, and which database it uses (a password never shown).
import { parseDatabaseUrl, redactUrl } from '@weft/store';
import type { Config } from '../config.ts';
import { VERSION } from '../version.ts';

export function banner(url: string, config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
  const database = target.kind === 'sqlite' ? `SQLite ${target.path}` : `PostgreSQL ${redactUrl(target.url)}`;
  return [
    '',
    `  Weft ${VERSION} is running`,
    `  API       ${url}`,
    `  ready     ${url}/ready`,
    `  metrics   ${url}/metrics`,
    `  database  ${database}`,
    '  Ctrl-C stops it after the requests in flight.',
    '',
    '',
  ].join('\n');
}
