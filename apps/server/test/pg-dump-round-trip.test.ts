// The README's PostgreSQL backup drill, as written there: `weft backup` (pg_dump, custom format)
// of a running server's database, `pg_restore` into a fresh database, `weft migrate`, and a server
// on it answering every read of a project of every kind byte for byte as the source does.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readProject, writeProject } from './move-answers.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { runWeftProcess } from './weft-process.ts';

describeIfPostgres('a PostgreSQL backup with pg_dump and pg_restore', () => {
  let dir: string;
  const closes: Array<() => Promise<void>> = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-pg-dump-'));
  });
  afterAll(async () => {
    for (const close of closes.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores into a fresh database that answers as the source', async () => {
    const source = await startTestServer('postgres');
    closes.push(() => source.close());
    const written = await writeProject(source);
    const answers = await readProject(source, written);

    const file = join(dir, 'weft.dump');
    const backup = await runWeftProcess(['backup', '--out', file], { DATABASE_URL: source.databaseUrl, WEFT_CWD: dir }).done;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^SHA-256: [0-9a-f]{64}$/m);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('PGDMP');
    // Its password, if any, never reaches the output.
    const password = new URL(source.databaseUrl).password;
    if (password) expect(backup.stdout + backup.stderr).not.toContain(password);

    // `weft restore` names the tool for it rather than guessing.
    const refused = await runWeftProcess(['restore', '--from', file], { DATABASE_URL: `sqlite:${join(dir, 'x.sqlite')}`, WEFT_CWD: dir })
      .done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/pg_dump archive: restore it with pg_restore/);

    const fresh = await createPgTestDatabase();
    closes.push(() => fresh.drop());
    await promisify(execFile)('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${fresh.url}`, file]);
    const migrate = await runWeftProcess(['migrate'], { DATABASE_URL: fresh.url }).done;
    expect(migrate.code, migrate.stderr).toBe(0);

    const restored: TestServer = await startTestServer('sqlite', { DATABASE_URL: fresh.url });
    closes.push(() => restored.close());
    expect(await readProject(restored, written)).toEqual(answers);
  }, 300_000);
});
