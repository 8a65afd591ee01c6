// `weft export` / `weft import`'s engine: a round trip into an empty database keeps every row and
// digest (from and into both databases), a project's export holds that project only and no key,
// and a damaged, truncated, foreign or newer tarball is refused before anything is written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { exportArchive, importArchive, TransferError } from '../../src/transfer/index.ts';
import { checkTable } from '../../src/transfer/table-check.ts';
import { EXPORTED_TABLES } from '../../src/transfer/transfer-tables.ts';
import { createPgTestDatabase, pgStatus } from '../dialects.ts';
import { seedEveryTable } from './seed-every-table.ts';

const REQUIRE_PG = process.env.WEFT_REQUIRE_PG === '1';
const withPg = pgStatus.reachable || REQUIRE_PG;

async function checksOf(db: Db, projectId?: string) {
  const out: Record<string, unknown> = {};
  for (const table of EXPORTED_TABLES) out[table.name] = await checkTable(db, table, { projectId, batchSize: 100 });
  return out;
}

/** The tarball's entries: name → text. */
async function entries(file: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const extract = tar.extract();
  extract.end(gunzipSync(readFileSync(file)));
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    out.set(entry.header.name, Buffer.concat(chunks).toString('utf8'));
  }
  return out;
}

async function tarball(file: string, files: Array<[string, string]>): Promise<void> {
  const pack = tar.pack();
  for (const [name, text] of files) pack.entry({ name }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}

describe('export and import', () => {
  let dir: string;
  const dbs: Db[] = [];
  const drops: Array<() => Promise<void>> = [];
  const fresh = async (kind: 'sqlite' | 'postgres'): Promise<Db> => {
    let db: Db;
    if (kind === 'postgres') {
      const pg = await createPgTestDatabase();
      drops.push(() => pg.drop());
      db = await openDatabase(pg.url);
    } else db = await openDatabase(`sqlite:${join(dir, `${dbs.length}.sqlite`)}`);
    dbs.push(db);
    return db;
  };
  let source: Db;
  let all: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-archive-'));
    source = await fresh('sqlite');
    await migrateToLatest(source);
    await seedEveryTable(source, 'acme/one', 60);
    await seedEveryTable(source, 'globex/two', 10);
    all = join(dir, 'all.tar.gz');
    await exportArchive(source, all, { weftVersion: 'test', batchSize: 7 });
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(withPg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))(
    'round-trips every project into an empty %s database with every row and digest',
    async (kind) => {
      const target = await fresh(kind);
      const report = await importArchive(target, all, { batchSize: 7 });
      expect(report.projects).toEqual(['acme/one', 'globex/two']);
      expect(await checksOf(target)).toEqual(await checksOf(source));
      // The deployment's keys stay behind.
      expect(await target.kysely.selectFrom('api_keys').select('id').execute()).toEqual([]);
      // A second import writes nothing and still verifies.
      const again = await importArchive(target, all, { batchSize: 7 });
      expect(again.tables.reduce((n, t) => n + t.inserted, 0)).toBe(0);

      if (kind === 'postgres') {
        // And back: PostgreSQL's export imports into SQLite with the same checksums.
        const file = join(dir, 'from-pg.tar.gz');
        await exportArchive(target, file, { weftVersion: 'test' });
        const back = await fresh('sqlite');
        await importArchive(back, file);
        expect(await checksOf(back)).toEqual(await checksOf(source));
      }
    },
  );

  it("exports one project's rows only, with a manifest and checksums, and no keys", async () => {
    const file = join(dir, 'one.tar.gz');
    const report = await exportArchive(source, file, { weftVersion: 'test', projects: ['globex/two'] });
    const files = await entries(file);
    const names = [...files.keys()];
    expect(names[0]).toBe('manifest.json');
    expect(names.at(-1)).toBe('checksums.json');
    expect(names.slice(1, -1)).toEqual(EXPORTED_TABLES.map((t) => `${t.name}.jsonl`));
    const manifest = JSON.parse(files.get('manifest.json')!) as Record<string, unknown>;
    expect(manifest).toMatchObject({ format: 'weft-export', formatVersion: 1, weftVersion: 'test', projects: ['globex/two'] });
    expect(Object.keys(manifest.excluded as object)).toEqual(['auth_users', 'api_keys', 'table_sort_orders']);
    let lines = 0;
    for (const table of EXPORTED_TABLES) {
      for (const line of files.get(`${table.name}.jsonl`)!.split('\n').filter(Boolean)) {
        lines++;
        expect((JSON.parse(line) as { project_id: string }).project_id).toBe('globex/two');
      }
    }
    expect(lines).toBe(Object.values(report.checksums.tables).reduce((n, t) => n + t.rows, 0));
    expect(files.get('objects.jsonl')).toContain('"x":1.0');

    const target = await fresh('sqlite');
    await importArchive(target, file);
    expect(await checksOf(target)).toEqual(await checksOf(source, 'globex/two'));
    expect(await target.kysely.selectFrom('calls').select('project_id').distinct().execute()).toEqual([{ project_id: 'globex/two' }]);
    await expect(exportArchive(source, join(dir, 'none.tar.gz'), { weftVersion: 't', projects: ['no/such'] })).rejects.toThrow(
      'Project "no/such" holds no data in this database.',
    );
  });

  it('refuses a damaged, truncated, foreign or newer tarball before writing anything', async () => {
    const target = await fresh('sqlite');
    const bytes = readFileSync(all);
    const refuse = async (name: string, content: Buffer, message: RegExp) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      const attempt = importArchive(target, file);
      await expect(attempt).rejects.toBeInstanceOf(TransferError);
      await expect(attempt).rejects.toThrow(message);
    };
    // One table's content changed, the tarball otherwise well formed.
    const files = await entries(all);
    const tampered = [...files].map(([name, text]): [string, string] => [name, name === 'calls.jsonl' ? text.replace('p1', 'p9') : text]);
    await tarball(join(dir, 'tampered.tar.gz'), tampered);
    await refuse('tampered2.tar.gz', readFileSync(join(dir, 'tampered.tar.gz')), /calls\.jsonl does not match its checksum/);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await refuse('flipped.tar.gz', flipped, /damaged|incomplete|not a tarball|does not match/);
    await refuse('truncated.tar.gz', bytes.subarray(0, bytes.length - 100), /damaged or incomplete|incomplete/);
    await refuse('plain.tar.gz', Buffer.from('hello'), /not a \.tar\.gz/);
    await tarball(join(dir, 'foreign.tar.gz'), [['README', 'hi']]);
    await refuse('foreign2.tar.gz', readFileSync(join(dir, 'foreign.tar.gz')), /not a Weft export/);

    const manifest = JSON.parse(files.get('manifest.json')!) as Record<string, unknown>;
    await tarball(join(dir, 'newer.tar.gz'), [
      ['manifest.json', JSON.stringify({ ...manifest, schema: '9999-future', weftVersion: '9.0.0' })],
    ]);
    await refuse(
      'newer2.tar.gz',
      readFileSync(join(dir, 'newer.tar.gz')),
      /schema "9999-future", newer than this Weft's latest .*Weft 9\.0\.0 or newer/,
    );
    await tarball(join(dir, 'format.tar.gz'), [['manifest.json', JSON.stringify({ ...manifest, formatVersion: 2 })]]);
    await refuse('format2.tar.gz', readFileSync(join(dir, 'format.tar.gz')), /export format 2; this Weft reads format 1/);
    await expect(importArchive(target, join(dir, 'missing.tar.gz'))).rejects.toThrow(/no such file/);

    // Nothing was written (the target was not even migrated).
    const tables = await target.kysely.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual([]);
  });

  it('fails verification when the database held other rows of an imported project', async () => {
    const target = await fresh('sqlite');
    await migrateToLatest(target);
    await target.kysely
      .insertInto('tables')
      .values({ project_id: 'globex/two', digest: 'something-else', row_count: 0, created_at: '2020-01-01T00:00:00.000Z' })
      .execute();
    await expect(importArchive(target, all)).rejects.toThrow(/tables: \d+ rows in the export, \d+ in the database[\s\S]*held other data/);
  });
});
