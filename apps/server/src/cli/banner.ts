// What `weft serve` prints on a terminal once it listens: where the web UI, the API, its spec, its
// readiness and its metrics are, and which database it uses (a password never shown).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseDatabaseUrl, redactUrl } from '@weft/store';
import type { Config } from '../config.ts';
import { VERSION } from '../version.ts';

export function banner(url: string, config: Pick<Config, 'databaseUrl' | 'dataDir' | 'webDir'>): string {
  const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
  const database = target.kind === 'sqlite' ? `SQLite ${target.path}` : `PostgreSQL ${redactUrl(target.url)}`;
  return [
    '',
    `  Weft ${VERSION} is running`,
    `  UI        ${existsSync(join(config.webDir, 'index.html')) ? `${url}/` : `not built (pnpm build builds apps/web; WEB_DIR=${config.webDir})`}`,
    `  API       ${url}`,
    `  spec      ${url}/openapi.json`,
    `  ready     ${url}/ready`,
    `  metrics   ${url}/metrics`,
    `  database  ${database}`,
    '  Ctrl-C stops it after the requests in flight.',
    '',
    '',
  ].join('\n');
}
