// `weft demo [--project <entity>/<project>]`: opens the configured database (DATABASE_URL, the
// SQLite file under DATA_DIR by default, as `weft serve` does), migrates it, and seeds the demo.
// Without --project: `<entity>/demo`, the entity being the first one of the auth file's first
// user, or `local` (the zero-config local key's).
import { loadCatalogue } from '@weft/core';
import { createStore, migrateToLatest, openDatabase } from '@weft/store';
import { ALL_ENTITIES, loadAuthFile } from '../auth/index.ts';
import type { CliIo } from '../auth/cli.ts';
import { LOCAL_USERNAME } from '../auth/local-key.ts';
import type { Config } from '../config.ts';
import { seedDemo } from './seed-demo.ts';

const PROJECT_ID = /^[^/\s]+\/[^/\s]+$/;

function defaultProject(config: Config): string {
  const entity = config.authFile
    ? loadAuthFile(config.authFile)
        .users.flatMap((u) => u.entities)
        .find((e) => e !== ALL_ENTITIES)
    : undefined;
  return `${entity ?? LOCAL_USERNAME}/demo`;
}

export async function runDemo(config: Config, project: string | undefined, io: CliIo): Promise<number> {
  const projectId = project ?? defaultProject(config);
  if (!PROJECT_ID.test(projectId)) {
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
        `\nDemo project ${projectId}: ${summary.calls} calls, a dataset of ${summary.rows} rows, an annotation queue, ` +
          `feedback, an ART run of ${summary.steps} steps (${((performance.now() - started) / 1000).toFixed(1)} s).\n` +
          `Start the server (pnpm start) and open http://127.0.0.1:${config.port}/${projectId}/traces\n`,
      );
    }
    return 0;
  } finally {
    await db.close();
  }
}
