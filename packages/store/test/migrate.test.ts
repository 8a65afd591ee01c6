import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrationsFor, openDatabase, runMigrations, type Db } from '../src/db/index.ts';
import { createPgTestDatabase, describeEachDialect, describeIfPostgres } from './dialects.ts';

const TABLES = [
  'annotation_queue_items',
  'annotation_queues',
  'annotator_queue_items_progress',
  'api_keys',
  'auth_users',
  'calls',
  'feedback',
  'files',
  'judgements',
  'llm_token_prices',
  'model_checkpoints',
  'models',
  'monitor_cursors',
  'object_aliases',
  'object_tags',
  'objects',
  'project_ttl_settings',
  'retention_file_candidates',
  'rows',
  'table_rows',
  'table_sort_orders',
  'tables',
  'trajectories',
  'trajectory_groups',
  'trajectory_logs',
];

// Every key and index: [table, kind, columns, partial?]. The whole list is compared, so an index
// added later must be added here too (and start with project_id unless on a global table).
const KEYS: Array<[string, 'primary' | 'unique' | 'index', string[], boolean?]> = [
  ['annotation_queue_items', 'primary', ['project_id', 'id']],
  ['annotation_queue_items', 'index', ['project_id', 'queue_id', 'created_at', 'id'], true],
  ['annotation_queue_items', 'unique', ['project_id', 'queue_id', 'call_id'], true],
  ['annotation_queues', 'primary', ['project_id', 'id']],
  ['annotation_queues', 'index', ['project_id', 'created_at']],
  ['annotator_queue_items_progress', 'primary', ['project_id', 'queue_item_id', 'annotator_id']],
  ['annotator_queue_items_progress', 'index', ['project_id', 'queue_id', 'queue_item_id']],
  ['api_keys', 'primary', ['id']],
  ['api_keys', 'index', ['username', 'created_at']],
  ['auth_users', 'primary', ['username']],
  ['calls', 'primary', ['project_id', 'id']],
  ['calls', 'index', ['project_id', 'op_name', 'started_at']],
  ['calls', 'index', ['project_id', 'parent_id']],
  ['calls', 'index', ['project_id', 'started_at']],
  ['calls', 'index', ['project_id', 'trace_id']],
  ['calls', 'index', ['project_id', 'expire_at'], true],
  ['calls', 'index', ['project_id', 'started_at', 'thread_id', 'ended_at', 'id'], true],
  ['feedback', 'primary', ['project_id', 'id']],
  ['feedback', 'index', ['project_id', 'weave_ref', 'feedback_type', 'created_at', 'id']],
  ['feedback', 'index', ['project_id', 'created_at']],
  ['feedback', 'index', ['project_id', 'queue_id'], true],
  ['files', 'primary', ['project_id', 'digest']],
  ['judgements', 'primary', ['project_id', 'id']],
  ['judgements', 'unique', ['project_id', 'source_key', 'scorer_ref', 'call_id']],
  ['judgements', 'index', ['project_id', 'created_at', 'id']],
  ['judgements', 'index', ['state', 'due_at']],
  ['llm_token_prices', 'primary', ['project_id', 'id']],
  ['llm_token_prices', 'index', ['project_id', 'llm_id', 'effective_date']],
  ['model_checkpoints', 'primary', ['project_id', 'model_id', 'step']],
  ['model_checkpoints', 'index', ['project_id', 'model_id', 'id']],
  ['models', 'primary', ['id']],
  ['monitor_cursors', 'primary', ['project_id', 'monitor']],
  ['models', 'unique', ['project_id', 'name']],
  ['object_aliases', 'primary', ['project_id', 'object_id', 'alias']],
  ['object_aliases', 'index', ['project_id', 'alias']],
  ['object_tags', 'primary', ['project_id', 'object_id', 'digest', 'tag']],
  ['object_tags', 'index', ['project_id', 'tag']],
  ['objects', 'primary', ['project_id', 'object_id', 'digest']],
  ['objects', 'unique', ['project_id', 'object_id', 'version_index']],
  ['objects', 'index', ['project_id', 'created_at', 'version_index']],
  ['objects', 'index', ['project_id', 'created_at', 'version_index'], true],
  ['objects', 'index', ['project_id', 'object_id'], true],
  ['project_ttl_settings', 'primary', ['project_id']],
  ['retention_file_candidates', 'primary', ['project_id', 'digest']],
  ['rows', 'primary', ['project_id', 'digest']],
  ['table_rows', 'primary', ['project_id', 'table_digest', 'row_index']],
  ['table_sort_orders', 'primary', ['project_id', 'table_digest', 'sort_key', 'chunk']],
  ['tables', 'primary', ['project_id', 'digest']],
  ['trajectories', 'primary', ['project_id', 'log_id', 'group_index', 'trajectory_index']],
  ['trajectory_groups', 'primary', ['project_id', 'log_id', 'group_index']],
  ['trajectory_logs', 'primary', ['project_id', 'id']],
  ['trajectory_logs', 'index', ['project_id', 'model_id', 'split', 'step']],
  ['trajectory_logs', 'index', ['project_id', 'model_id', 'step', 'id']],
];

describeEachDialect('schema', (getDb) => {
  it('has every table, and re-running the migrations changes nothing', async () => {
    const db = getDb();
    await migrateToLatest(db);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(TABLES);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrationsFor(db.dialect)));
  });

  it('keys every table and index by project_id first (except the global ones: models and keys)', async () => {
    const db = getDb();
    const actual = (await listKeys(db)).map((k) => JSON.stringify(k)).sort();
    const expected = KEYS.map(([table, kind, columns, partial]) =>
      JSON.stringify({ table, kind, columns, partial: partial ?? false }),
    ).sort();
    expect(actual).toEqual(expected);
    const global = new Set(['models', 'api_keys', 'auth_users']);
    // The judges' queue of due work spans projects: the judges of a deployment claim from all of
    // them (on Citus every shard keeps its part of the index and the claim asks each).
    const spansProjects = (table: string, columns: string[]) => table === 'judgements' && columns[0] === 'state';
    for (const [table, , columns] of KEYS) if (!global.has(table) && !spansProjects(table, columns)) expect(columns[0]).toBe('project_id');
  });

  it('makes the latest-version index partial on is_latest = 1', async () => {
    const db = getDb();
    const { rows } =
      db.dialect === 'postgres'
        ? await sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = 'objects_latest_created_idx'`.execute(
            db.kysely,
          )
        : await sql<{ def: string }>`select sql as def from sqlite_master where name = 'objects_latest_created_idx'`.execute(db.kysely);
    expect(rows[0]?.def).toMatch(/where \(?"?is_latest"? = 1\)?$/i);
  });

  it('marks exactly the optional columns nullable', async () => {
    const db = getDb();
    const objects = (await db.kysely.introspection.getTables()).find((t) => t.name === 'objects');
    const nullable = objects?.columns
      .filter((c) => c.isNullable)
      .map((c) => c.name)
      .sort();
    expect(nullable).toEqual(['base_object_class', 'deleted_at', 'leaf_object_class', 'svc_user_id']);
    const calls = (await db.kysely.introspection.getTables()).find((t) => t.name === 'calls');
    expect(
      calls?.columns
        .filter((c) => !c.isNullable)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['id', 'project_id']);
  });

  it('compresses large JSON values with lz4 on PostgreSQL (SQLite has no such setting)', async () => {
    const db = getDb();
    if (db.dialect !== 'postgres') return;
    const { rows } = await sql<{ column: string; compression: string }>`
      select c.relname || '.' || a.attname as column, a.attcompression as compression
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where (c.relname, a.attname) in (('rows', 'val'), ('trajectory_groups', 'data'), ('trajectories', 'data'))
      order by 1`.execute(db.kysely);
    expect(rows).toEqual([
      { column: 'rows.val', compression: 'l' },
      { column: 'trajectories.data', compression: 'l' },
      { column: 'trajectory_groups.data', compression: 'l' },
    ]);
  });

  it('compares text byte-wise in both databases', async () => {
    const db = getDb();
    const ids = ['b', 'é', 'B', '_', 'a', 'Z', '10', '9'];
    await db.kysely
      .insertInto('tables')
      .values(ids.map((digest) => ({ project_id: 'collation/p', digest, row_count: 0, created_at: '2025-01-01T00:00:00.000Z' })))
      .execute();
    const sorted = await db.kysely
      .selectFrom('tables')
      .select('digest')
      .where('project_id', '=', 'collation/p')
      .orderBy('digest')
      .execute();
    expect(sorted.map((r) => r.digest)).toEqual(['10', '9', 'B', 'Z', '_', 'a', 'b', 'é']);
    if (db.dialect === 'postgres') {
      const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.columns
        where table_schema = 'public' and data_type = 'text' and collation_name is distinct from 'C'`.execute(db.kysely);
      expect(rows[0]?.n).toBe(0);
    }
  });
});

describe('migration failures [sqlite]', () => {
  it('reports the failing migration and rolls back the whole run', async () => {
    const db = await openDatabase('sqlite::memory:');
    try {
      await expectFailedRunRolledBack(db);
    } finally {
      await db.close();
    }
  });
});

describeIfPostgres('migration failures [postgres]', (getUrl) => {
  it('reports the failing migration and rolls back the whole run', async () => {
    const db = await openDatabase(getUrl());
    try {
      await expectFailedRunRolledBack(db);
    } finally {
      await db.close();
    }
  });
});

async function expectFailedRunRolledBack(db: Db): Promise<void> {
  const migrations: Record<string, Migration> = {
    '0001-ok': { up: (k) => k.schema.createTable('first').addColumn('x', 'integer').execute() },
    '0002-broken': {
      up: async (k) => {
        await k.schema.createTable('second').addColumn('x', 'integer').execute();
        await sql`select * from no_such_table`.execute(k);
      },
    },
  };
  await expect(runMigrations(db, migrations)).rejects.toThrow(
    new RegExp(`Database migration "0002-broken" failed on ${db.dialect}.*no_such_table`),
  );
  const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
  expect(tables).not.toContain('first');
  expect(tables).not.toContain('second');
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
  expect(applied.rows).toEqual([]);
}

describeIfPostgres('concurrent migrations [postgres]', () => {
  it('4 replicas migrating a fresh database at once all succeed, and the schema is applied once', async () => {
    const target = await createPgTestDatabase();
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase(target.url)));
    try {
      await Promise.all(dbs.map((db) => migrateToLatest(db)));
      const [first] = dbs as [Db];
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(first.kysely);
      expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrationsFor('postgres')));
      expect((await first.kysely.introspection.getTables()).map((t) => t.name).sort()).toEqual(TABLES);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await target.drop();
    }
  });

  it('runs each migration body exactly once across concurrent replicas', async () => {
    const target = await createPgTestDatabase();
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase(target.url)));
    try {
      const [first] = dbs as [Db];
      await sql`create table runs (n integer not null)`.execute(first.kysely);
      // Slow enough that, without the lock, the replicas would overlap.
      const counted: Migration = {
        up: async (k: Kysely<unknown>) => {
          await sql`select pg_sleep(0.3)`.execute(k);
          await sql`insert into runs values (1)`.execute(k);
        },
      };
      await Promise.all(dbs.map((db) => runMigrations(db, { '0001-counted': counted })));
      const { rows } = await sql<{ n: number }>`select count(*) as n from runs`.execute(first.kysely);
      expect(rows[0]?.n).toBe(1);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await target.drop();
    }
  });
});

type Key = { table: string; kind: 'primary' | 'unique' | 'index'; columns: string[]; partial: boolean };

async function listKeys(db: Db): Promise<Key[]> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ table: string; primary: boolean; unique: boolean; partial: boolean; columns: string[] }>`
      select t.relname as "table", ix.indisprimary as "primary", ix.indisunique as "unique",
             ix.indpred is not null as "partial",
             array(select cast(a.attname as text) from unnest(ix.indkey) with ordinality as k(attnum, ord)
                   join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord) as columns
      from pg_index ix
      join pg_class t on t.oid = ix.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and t.relname not like 'kysely%'`.execute(db.kysely);
    return rows.map((r) => ({
      table: r.table,
      kind: r.primary ? 'primary' : r.unique ? 'unique' : 'index',
      columns: r.columns,
      partial: r.partial,
    }));
  }
  const keys: Key[] = [];
  for (const table of TABLES) {
    const { rows: indexes } = await sql<{ name: string; origin: string; unique: number; partial: number }>`
      select name, origin, "unique", partial from pragma_index_list(${table})`.execute(db.kysely);
    for (const index of indexes) {
      const { rows: cols } = await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(
        db.kysely,
      );
      keys.push({
        table,
        // A unique index (CREATE UNIQUE INDEX) counts as unique too, as PostgreSQL's indisunique says.
        kind: index.origin === 'pk' ? 'primary' : index.unique === 1 ? 'unique' : 'index',
        columns: cols.map((c) => c.name),
        partial: index.partial === 1,
      });
    }
  }
  return keys;
}

describeIfPostgres('migration 0012: table rows become json, as written [postgres]', (getUrl) => {
  it('keeps every stored row (as jsonb wrote it), compressed with lz4, and goes back down', async () => {
    const db = await openDatabase(getUrl());
    try {
      const all = migrationsFor('postgres');
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0012'));
      // Up to 0012 and no further, so that one step down is 0012's.
      const through = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0013'));
      await runMigrations(db, before);
      // Kept as jsonb's text: blanks after ',' and ':', keys reordered, 1e2 respelt (values unchanged).
      const values = ['{"bb": "x, y: z", "a": [1, 2.50, 1e2, {"k": "\\" , "}]}', '"a, b: c"', '[]', 'null'];
      for (const [i, text] of values.entries()) {
        await sql`insert into rows (project_id, digest, val) values ('m/p', ${`d${i}`}, cast(${text} as jsonb))`.execute(db.kysely);
      }
      await runMigrations(db, through);
      const { rows } = await sql<{ digest: string; text: string; type: string }>`
        select digest, cast(val as text) as text, pg_typeof(val)::text as type from rows where project_id = 'm/p' order by digest`.execute(
        db.kysely,
      );
      expect(rows).toEqual([
        { digest: 'd0', text: '{"a": [1, 2.50, 100, {"k": "\\" , "}], "bb": "x, y: z"}', type: 'json' },
        { digest: 'd1', text: '"a, b: c"', type: 'json' },
        { digest: 'd2', text: '[]', type: 'json' },
        { digest: 'd3', text: 'null', type: 'json' },
      ]);
      const { rows: compression } = await sql<{ c: string }>`
        select attcompression as c from pg_attribute where attrelid = 'rows'::regclass and attname = 'val'`.execute(db.kysely);
      expect(compression).toEqual([{ c: 'l' }]);

      await new Migrator({ db: db.kysely, provider: { getMigrations: async () => through } }).migrateDown();
      const { rows: down } = await sql<{ type: string; same: boolean }>`
        select pg_typeof(val)::text as type, val = cast(${values[0]} as jsonb) as same from rows where digest = 'd0'`.execute(db.kysely);
      expect(down).toEqual([{ type: 'jsonb', same: true }]);
    } finally {
      await db.close();
    }
  });
});
