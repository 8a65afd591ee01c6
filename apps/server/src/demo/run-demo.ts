// `weft demo [--project <entity>/<project>]`: opens the configured database (DATABASE_URL, the
// SQLite file under DATA_DIR by default, as `weft serve` does), migrates it, and seeds the demo.
// Without --project: `<entity>/demo`, the entity being the default one (as for ART's null entity)
// of the auth file's first user, or `local` (the zero-config local key's: its user `local` may
// access every entity, so its default entity is named after it).
import { loadCatalogue } from '@weft/core';
import { createStore, migrateToLatest, openDatabase } from '@weft/store';
import { defaultEntity, loadAuthFile } from '../auth/index.ts';
import type { CliIo } from '../auth/cli.ts';
import { LOCAL_USERNAME } from '../auth/local-key.ts';
import type { Config } from '../config.ts';
import { serverUrl } from '../http/server-url.ts';
import { seedDemo } from './seed-demo.ts';

const PROJECT_ID = /^[^/\s]+\/[^/\s]+$/;

function defaultProject(config: Config): string {
  // A missing AUTH_FILE throws here as it does for `weft serve`.
  const first = config.authFile ? loadAuthFile(config.authFile).users[0] : undefined;
  return `${first ? defaultEntity(first) : LOCAL_USERNAME}/demo`;
}

export async function runDemo(config: Config, project: string | undefined, io: CliIo): Promise<number> {
  const projectId = project ?? defaultProject(config);
  // The spec's ProjectId: the store trusts its callers, so the command checks what the API would.
  if (!PROJECT_ID.test(projectId) || projectId.length > 512) {
    io.stderr.write(`Error: --project must be <entity>/<project>, got "${projectId}"\n`);
    return 2;
  }
  const catalogue = await loadCatalogue(config.modelsFile);
  const db = await openDatabase(config.databaseUrl, { dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    const store = createStore({ db, catalogue });
    const started = performance.now();
    const summary = await seedDemo(store, projectId, (line) => io.stdout.write(`  ${line}\n`));
    if (summary.written) {
      io.stdout.write(
        `\nDemo project ${projectId}: ${summary.traces} traces of ${summary.calls} calls, a dataset of ${summary.rows} rows, ` +
          `an annotation queue, ${summary.feedback} feedback items, an ART run of ${summary.steps} steps ` +
          `with ${summary.trajectories} trajectories (${((performance.now() - started) / 1000).toFixed(1)} s).\n`,
      );
    }
    // Either way the project is there to look at, at the address the configured server listens on.
    const base =
      config.port === 0 ? `${serverUrl(config.host, 0).slice(0, -2)}:<the port the server prints>` : serverUrl(config.host, config.port);
    io.stdout.write(`Start the server (pnpm start) and open ${base}/${projectId}/traces\n`);
    return 0;
  } finally {
    await db.close();
  }
}
