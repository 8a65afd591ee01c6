// tableCreate: Weave's row and table digests, rows stored once, the ordered list kept with its
// duplicates, and creating the same table again (also concurrently) giving the same answer.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WEAVE_EMPTY_TABLE_DIGEST, WEAVE_TABLE_VECTOR } from '@weft/core/testing';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/index.ts';
import { describeEachDialect, describeIfPostgres } from '../dialects.ts';
import { turnsDuring } from '../event-loop-turns.ts';
import { ALICE, expectWeftError, newProject, storeOn, viaHttp, viaHttpRowTexts, type TestStore } from '../objects/helpers.ts';

const [A1, A2] = WEAVE_TABLE_VECTOR.rowDigests;
const TABLE_A1_A2 = WEAVE_TABLE_VECTOR.digest;
const EMPTY_TABLE = WEAVE_EMPTY_TABLE_DIGEST;

const tableBody = (p: string, rowsText: string, extra = ''): string => `{"table":{"project_id":"${p}","rows":${rowsText}${extra}}}`;
const rowsOf = (res: T.TableQueryRes) => res.rows.map((r) => [r.original_index, r.digest, r.val]);

async function counts(db: Db, p: string): Promise<{ tables: number; rows: number; list: number }> {
  const count = async (table: 'tables' | 'rows' | 'table_rows'): Promise<number> => {
    const r = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', p)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  return { tables: await count('tables'), rows: await count('rows'), list: await count('table_rows') };
}

describeEachDialect('tableCreate', (getDb) => {
  it('answers Weave digests (weave-compat §5) and stores the rows in order', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-vectors');
    const res = await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, '[{"a":1},{"a":2}]')));
    expect(res).toEqual({ digest: TABLE_A1_A2, row_digests: [A1, A2] });
    expect(rowsOf(await store.tableQuery({ project_id: p, digest: TABLE_A1_A2 }, ALICE))).toEqual([
      [0, A1, { a: 1 }],
      [1, A2, { a: 2 }],
    ]);

    const empty = await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, '[]')));
    expect(empty).toEqual({ digest: EMPTY_TABLE, row_digests: [] });
    expect(await store.tableQuery({ project_id: p, digest: EMPTY_TABLE }, ALICE)).toEqual({ rows: [] });

    // Digests follow the lexemes sent: 1.0 is not 1. Without a lossless source, the plain value.
    const float = await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, '[{"a":1.0}]')));
    expect(float.row_digests).toEqual(['dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q']);
    const plain = await store.tableCreate({ table: { project_id: p, rows: [{ a: 1 }, { a: 2 }] as never[] } }, ALICE);
    expect(plain.digest).toBe(TABLE_A1_A2);
  });

  it('checks expected_digest (409) and that every row is an object (400), storing nothing then', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-reject');
    const err = await expectWeftError(
      store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, '[{"a":1},{"a":2}]', ',"expected_digest":"abc"'))),
      409,
      'DigestMismatchError',
    );
    expect(err.extra).toEqual({ expected_digest: 'abc', computed_digest: TABLE_A1_A2 });
    for (const bad of ['[1]', '[[]]', '[null]', '[{"a":1},"x"]']) {
      await expectWeftError(store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, bad))), 400, 'InvalidRequest');
    }
    expect(await counts(getDb(), p)).toEqual({ tables: 0, rows: 0, list: 0 });
    const ok = await store.tableCreate(
      ...viaHttp<T.TableCreateReq>(tableBody(p, '[{"a":1},{"a":2}]', `,"expected_digest":"${TABLE_A1_A2}"`)),
    );
    expect(ok.digest).toBe(TABLE_A1_A2);
  });

  it('stores each distinct row once, keeps duplicates in the list, and re-creating changes nothing', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-dupes');
    const body = tableBody(p, '[{"a":1},{"a":2},{"a":1},{"a":1}]');
    const first = await store.tableCreate(...viaHttp<T.TableCreateReq>(body));
    expect(first.row_digests).toEqual([A1, A2, A1, A1]);
    expect(await counts(getDb(), p)).toEqual({ tables: 1, rows: 2, list: 4 });

    expect(await store.tableCreate(...viaHttp<T.TableCreateReq>(body))).toEqual(first);
    // A second table sharing rows adds only its own list.
    await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, '[{"a":2},{"a":3}]')));
    expect(await counts(getDb(), p)).toEqual({ tables: 2, rows: 3, list: 6 });

    // Tables are per project: the same table elsewhere is stored there too.
    const other = newProject('table-dupes-other');
    await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(other, '[{"a":1}]')));
    expect(await counts(getDb(), other)).toEqual({ tables: 1, rows: 1, list: 1 });
  });

  it('concurrent creates of the same and of overlapping tables all succeed with one copy each', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-race');
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ i: from + i }));
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => store.tableCreate({ table: { project_id: p, rows: rows(0, 300) } }, ALICE)),
      store.tableCreate({ table: { project_id: p, rows: rows(150, 300).reverse() } }, ALICE),
    ]);
    expect(new Set(results.slice(0, 6).map((r) => r.digest)).size).toBe(1);
    expect(await counts(getDb(), p)).toEqual({ tables: 2, rows: 450, list: 600 });
  });

  it('creates a 12,000-row table (several insert chunks in each database) and pages it', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-big');
    const rows = Array.from({ length: 12_000 }, (_, i) => ({ i, name: `row ${i % 7000}`, tags: ['x', i % 3] }));
    const { digest, row_digests } = await store.tableCreate({ table: { project_id: p, rows: rows } }, ALICE);
    expect(row_digests).toHaveLength(12_000);
    expect(await counts(getDb(), p)).toEqual({ tables: 1, rows: 12_000, list: 12_000 });
    const page = await store.tableQuery({ project_id: p, digest, offset: 11_998, limit: 5 }, ALICE);
    expect(page.rows.map((r) => [r.original_index, r.val])).toEqual([
      [11_998, rows[11_998]],
      [11_999, rows[11_999]],
    ]);
    expect(page.rows[0]?.digest).toBe(row_digests[11_998]);
  });

  it('refuses a row holding U+0000 (neither database can keep it) and stores no row of the table', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-nul');
    const rows = `[{"a":1},{"s":"x\\u0000y"}]`;
    await expectWeftError(store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, rows))), 400, 'InvalidRequest');
    expect(await counts(getDb(), p)).toEqual({ tables: 0, rows: 0, list: 0 });
  });

  it('stores every row as sent (numbers as spelt, keys in order) whatever the statement it lands in', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-as-sent');
    // 3,001 rows: more than one statement's count, an odd remainder; every 500th row is ~300 kB,
    // so SQLite's text bound cuts statements short too (statements of several sizes).
    const texts = Array.from({ length: 3001 }, (_, i) =>
      i % 500 === 0 ? `{"big":"${'x'.repeat(300_000)}","i":${i}}` : `{"z":1.50,"i":${i},"a":[1e2,-0.0],"é":{"y":true,"x":null}}`,
    );
    const { row_digests } = await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(p, `[${texts.join(',')}]`)));
    expect(new Set(row_digests).size).toBe(3001);
    const stored = await sql<{
      digest: string;
      val: string;
    }>`select digest, cast(val as text) as val from rows where project_id = ${p}`.execute(getDb().kysely);
    const byDigest = new Map(stored.rows.map((r) => [r.digest, r.val]));
    expect(row_digests.map((d) => byDigest.get(d))).toEqual(texts);
  });

  it('digests and stores rows handed over as their text (a large body) as it does parsed rows', async () => {
    const store = storeOn(getDb());
    // Spelt every way the text and the parsed tree could part: blanks, escapes JSON.stringify
    // writes otherwise, number lexemes, keys JavaScript reorders or repeats, Python's literals.
    const texts = [
      '{ "b" : 1.0 , "a" : [ -0 , -0.0 , 1E2 , 12345678901234567890 , 1e400 ] }',
      '{"s":"\\u0041\\/\\u00e9\\ud83d\\ude00\\n\\u001F\\"","t":"é😀\u2028"}',
      '{"z":1,"10":2,"2":3,"a":{"0":[]}}',
      '{"k":1,"k":2.50}',
      '{"n":NaN,"i":-Infinity}',
      '{"__proto__":{"x":1},"constructor":[]}',
      '{}',
      `{"deep":${'['.repeat(50)}1.10${']'.repeat(50)}}`,
    ];
    const asText = newProject('table-row-texts');
    const parsed = newProject('table-row-parsed');
    const body = `[${texts.join(',')}]`;
    const fromText = await store.tableCreate(...viaHttpRowTexts(asText, texts));
    const fromTree = await store.tableCreate(...viaHttp<T.TableCreateReq>(tableBody(parsed, body)));
    expect(fromText).toEqual(fromTree);
    const storedOf = async (p: string) =>
      (
        await sql<{
          digest: string;
          val: string;
        }>`select digest, cast(val as text) as val from rows where project_id = ${p} order by digest`.execute(getDb().kysely)
      ).rows;
    expect(await storedOf(asText)).toEqual(await storedOf(parsed));
    expect((await storedOf(asText)).map((r) => r.val)).toContain('{"b":1.0,"a":[-0,-0.0,1E2,12345678901234567890,1e400]}');
    // Refused as when parsed: a row that is not an object, one that cannot be stored.
    for (const refused of ['[1]', '{"s":"x\\ud800"}', '{"s":"\\u0000"}']) {
      await expectWeftError(
        store.tableCreate(...viaHttpRowTexts(newProject('table-row-refused'), ['{"a":1}', refused])),
        400,
        'InvalidRequest',
      );
    }
  });

  it('gives the event loop turns while it digests and stores a large table (SQLite is synchronous)', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-turns');
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ i, text: `row ${i}`.repeat(4) }));
    const {
      value: { row_digests },
      turns,
    } = await turnsDuring(() => store.tableCreate({ table: { project_id: p, rows } }, ALICE));
    expect(row_digests).toHaveLength(40_000);
    expect(await counts(getDb(), p)).toEqual({ tables: 1, rows: 40_000, list: 40_000 });
    expect(turns).toBeGreaterThan(4);
  });
});

// The server defaults to REPEATABLE READ here: the store must still use READ COMMITTED, or a
// writer that waited on the other's insert of the same table would fail to serialise.
describeIfPostgres('tableCreate across two Store instances (replicas)', (getUrl) => {
  let dbs: Db[] = [];
  let stores: TestStore[] = [];
  beforeAll(async () => {
    const first = await openDatabase(getUrl());
    await migrateToLatest(first);
    const name = new URL(getUrl()).pathname.slice(1);
    await sql`alter database ${sql.id(name)} set default_transaction_isolation = 'repeatable read'`.execute(first.kysely);
    await first.close();
    dbs = [await openDatabase(getUrl(), { pool: { max: 4 } }), await openDatabase(getUrl(), { pool: { max: 4 } })];
    stores = dbs.map(storeOn);
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.close()));
  });

  it('the same table created concurrently by both gives one table and the same answer', async () => {
    const p = newProject('table-replicas');
    const rows = Array.from({ length: 2000 }, (_, i) => ({ i: i % 1500 }));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, k) => (stores[k % 2] as TestStore).tableCreate({ table: { project_id: p, rows: rows } }, ALICE)),
    );
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(await counts(dbs[0] as Db, p)).toEqual({ tables: 1, rows: 1500, list: 2000 });
  });
});
