// The same test bodies on both databases: each helper must give the same answer in each. The JSON
// path helpers also run over both kinds of JSON column: jsonb (calls) and json kept as written
// (objects, table rows), which PostgreSQL reads differently.
import { sql, type AliasableExpression, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  asWritten,
  jsonParam,
  jsonPathAsNumber,
  jsonPathAsText,
  jsonPathExtract,
  jsonPathType,
  jsonText,
  jsonTextAsWritten,
  maxBindParameters,
  nowIso,
  readJson,
  textContains,
  toIsoDatetime,
  type Db,
  type JsonSource,
} from '../src/db/index.ts';
import { createTable } from '../src/db/migrations/create-table.ts';
import { describeEachDialect } from './dialects.ts';

const DOC = {
  s: 'hello',
  n: 10,
  f: -1.5,
  t: true,
  no: false,
  z: null,
  o: { a: 1, b: [1, 2] },
  arr: [10, 'x', { deep: ['d0', 'd1'] }],
  '0': 'key named zero',
  'a.b': 'dotted',
  'it\'s "quoted" $1 ${x}': 'tricky',
  'back\\slash': 'bs',
  '[0]': 'bracketed',
  'tab\there': 'control',
  'ünï 😀': 'unicode',
  numstr: '42',
};

/** A kind of JSON column: where its values live, how they are written, how a helper reads it. */
interface JsonColumn {
  name: string;
  table: 'json_helpers' | 'rows';
  write(db: Db, value: unknown): RawBuilder<unknown>;
  source(ref: string): JsonSource;
  /** PostgreSQL json (the text as written) rather than jsonb. */
  asWritten: boolean;
}

const JSON_COLUMNS: JsonColumn[] = [
  { name: 'a jsonb column', table: 'json_helpers', write: jsonParam, source: (ref) => sql.ref(ref), asWritten: false },
  {
    name: 'rows.val, JSON as written',
    table: 'rows',
    write: (db, value) => jsonTextAsWritten(db, JSON.stringify(value)),
    source: asWritten,
    asWritten: true,
  },
];

/** A jsonb table of the test's own (no schema table has a jsonb column without other duties). */
const withHelperTable = new WeakSet<Db>();
async function ensureHelperTable(db: Db): Promise<void> {
  if (withHelperTable.has(db)) return;
  await createTable(db.kysely, db.dialect, 'json_helpers', {
    columns: { project_id: 'text', digest: 'text', val: 'json' },
    primaryKey: ['project_id', 'digest'],
  });
  withHelperTable.add(db);
}

/** Stores `values` in fresh rows of `column`'s table under `project`. */
async function store(db: Db, column: JsonColumn, project: string, values: readonly unknown[]): Promise<void> {
  await ensureHelperTable(db);
  const rows = values.map((v, i) => sql`(${project}, ${`${project}:${i}`}, ${column.write(db, v)})`);
  await sql`insert into ${sql.table(column.table)} (project_id, digest, val) values ${sql.join(rows)}`.execute(db.kysely);
}

let nextId = 0;
/** Stores `value` in a fresh row of `column` and evaluates `expr(its source)` against it. */
async function evalOn<T>(db: Db, column: JsonColumn, value: unknown, expr: (source: JsonSource) => AliasableExpression<T>): Promise<T> {
  const project = `helpers/${nextId++}`;
  await store(db, column, project, [value]);
  const { rows } = await sql<{ x: T }>`select ${expr(column.source('t.val'))} as x from ${sql.table(column.table)} as t
    where t.project_id = ${project}`.execute(db.kysely);
  return rows[0]!.x;
}

/**
 * Stores each value as `{k: value}` in fresh rows of `column`, and reads `at(source)` of them in
 * its own order, SQL NULLs left out.
 */
async function orderedBy<T>(
  db: Db,
  column: JsonColumn,
  name: string,
  values: readonly unknown[],
  at: (source: JsonSource) => RawBuilder<T | null>,
): Promise<T[]> {
  const project = `${name}/${column.table}`;
  await store(
    db,
    column,
    project,
    values.map((v) => ({ k: v })),
  );
  const k = at(column.source('t.val'));
  const { rows } = await sql<{ k: T }>`select ${k} as k from ${sql.table(column.table)} as t
    where t.project_id = ${project} and ${k} is not null order by ${k}`.execute(db.kysely);
  return rows.map((r) => r.k);
}

describeEachDialect('dialect helpers', (getDb) => {
  it('jsonParam / jsonText / readJson round-trip, and reject what is not JSON', async () => {
    const db = getDb();
    expect(readJson(db, await evalOn(db, JSON_COLUMNS[0]!, DOC, (c) => c as RawBuilder<unknown>))).toEqual(DOC);
    await ensureHelperTable(db);
    await sql`insert into json_helpers (project_id, digest, val) values ('text/p', 't', ${jsonText(db, '{"k": [1, "v"]}')})`.execute(
      db.kysely,
    );
    const { rows } = await sql<{ val: unknown }>`select val from json_helpers where project_id = 'text/p'`.execute(db.kysely);
    expect(readJson(db, rows[0]!.val)).toEqual({ k: [1, 'v'] });
    expect(readJson(db, null)).toBeNull();
    expect(() => jsonParam(db, undefined)).toThrow(/no JSON representation/);
    expect(() => jsonParam(db, () => 1)).toThrow(/no JSON representation/);
  });

  it('jsonTextAsWritten keeps the text as written, and rejects what is not JSON', async () => {
    const db = getDb();
    const written = '{"zz":1e2,"a":[1.50,-0.0]}';
    await sql`insert into rows (project_id, digest, val) values ('written/p', 'w', ${jsonTextAsWritten(db, written)})`.execute(db.kysely);
    const { rows } = await sql<{
      val: unknown;
      text: string;
    }>`select val, cast(val as text) as text from rows where project_id = 'written/p'`.execute(db.kysely);
    expect(rows[0]!.text).toBe(written);
    expect(readJson(db, rows[0]!.val)).toEqual({ zz: 100, a: [1.5, -0] });
    await expect(
      sql`insert into rows (project_id, digest, val) values ('written/p', 'bad', ${jsonTextAsWritten(db, '{"a":')})`.execute(db.kysely),
    ).rejects.toThrow();
    expect(() => jsonTextAsWritten(db, '{"a":"\\u0000"}')).toThrow(/U\+0000/);
  });

  for (const column of JSON_COLUMNS) {
    describe(column.name, () => {
      it('jsonPathExtract: keys, array indexes, missing paths, awkward keys', async () => {
        const db = getDb();
        const at = async (path: string[]) => readJson(db, await evalOn(db, column, DOC, (c) => jsonPathExtract(db, c, path)));
        expect(await at([])).toEqual(DOC);
        expect(await at(['s'])).toBe('hello');
        expect(await at(['o'])).toEqual({ a: 1, b: [1, 2] });
        expect(await at(['o', 'b', '1'])).toBe(2);
        expect(await at(['arr', '2', 'deep', '0'])).toBe('d0');
        expect(await at(['z'])).toBeNull(); // JSON null
        expect(await at(['missing'])).toBeNull(); // SQL NULL
        expect(await at(['arr', '9'])).toBeNull();
        expect(await at(['s', 'deeper'])).toBeNull();
        // Numeric components index arrays only: the object key "0" is not matched by them.
        expect(await at(['0'])).toBeNull();
        expect(await at(['a.b'])).toBe('dotted');
        expect(await at(['it\'s "quoted" $1 ${x}'])).toBe('tricky');
        expect(await at(['back\\slash'])).toBe('bs');
        expect(await at(['[0]'])).toBe('bracketed');
        expect(await at(['tab\there'])).toBe('control');
        expect(await at(['ünï 😀'])).toBe('unicode');
      });

      it('binds path components: SQL in a key is just a key', async () => {
        const db = getDb();
        const evil = `'); drop table rows; --`;
        expect(await evalOn(db, column, { [evil]: 'kept' }, (c) => jsonPathAsText(db, c, [evil]))).toBe('kept');
        expect(await evalOn(db, column, { a: 1 }, (c) => jsonPathAsText(db, c, [`a' or '1'='1`]))).toBeNull();
        expect(await evalOn(db, column, { a: 1 }, (c) => jsonPathAsText(db, c, [`$.a`]))).toBeNull();
        const { rows: stillThere } = await sql`select digest from ${sql.table(column.table)} limit 1`.execute(db.kysely);
        expect(stillThere.length).toBe(1);
      });

      it('jsonPathType names each JSON type, and NULL when missing', async () => {
        const db = getDb();
        const typeOf = (path: string[]) => evalOn(db, column, DOC, (c) => jsonPathType(db, c, path));
        expect(await typeOf(['s'])).toBe('string');
        expect(await typeOf(['n'])).toBe('number');
        expect(await typeOf(['f'])).toBe('number');
        expect(await typeOf(['t'])).toBe('boolean');
        expect(await typeOf(['no'])).toBe('boolean');
        expect(await typeOf(['z'])).toBe('null');
        expect(await typeOf(['o'])).toBe('object');
        expect(await typeOf(['arr'])).toBe('array');
        expect(await typeOf(['arr', '0'])).toBe('number');
        expect(await typeOf([])).toBe('object');
        expect(await typeOf(['missing'])).toBeNull();
        expect(await typeOf(['numstr'])).toBe('string');
      });

      it('jsonPathAsText: strings unquoted, numbers and booleans as JSON text, containers minified', async () => {
        const db = getDb();
        const text = (value: unknown, path: string[] = ['v']) => evalOn(db, column, { v: value }, (c) => jsonPathAsText(db, c, path));
        expect(await text('hello')).toBe('hello');
        expect(await text('')).toBe('');
        expect(await text('say "hi"\n')).toBe('say "hi"\n');
        expect(await text(10)).toBe('10');
        expect(await text(-1.5)).toBe('-1.5');
        expect(await text(true)).toBe('true');
        expect(await text(false)).toBe('false');
        expect(await text(null)).toBeNull();
        expect(await text('x', ['missing'])).toBeNull();
        expect(await text({ a: 1, b: [1, 'x, y: z', { c: null }], cc: 'q"uote' })).toBe(
          '{"a":1,"b":[1,"x, y: z",{"c":null}],"cc":"q\\"uote"}',
        );
        expect(await text([1, ' ', [], {}])).toBe('[1," ",[],{}]');
        expect(await text(['q", r: s', 'back\\', 't'])).toBe('["q\\", r: s","back\\\\","t"]'); // escapes inside strings
        // Documented difference: jsonb stores object keys sorted (shorter first); JSON as written
        // keeps them in the order sent in both databases.
        const sorted = db.dialect === 'postgres' && !column.asWritten;
        expect(await text({ bb: 1, a: 2 })).toBe(sorted ? '{"a":2,"bb":1}' : '{"bb":1,"a":2}');
      });

      it('jsonPathAsText sorts byte-wise', async () => {
        const db = getDb();
        const values = ['b', 'é', 'B', '_', 'a', 'Z'];
        const sorted = await orderedBy(db, column, 'sort', values, (c) => jsonPathAsText(db, c, ['k']));
        expect(sorted).toEqual(['B', 'Z', '_', 'a', 'b', 'é']);
      });

      it('jsonPathAsNumber: JSON numbers, and strings that are entirely a decimal number', async () => {
        const db = getDb();
        const num = (value: unknown, path: string[] = ['v']) => evalOn(db, column, { v: value }, (c) => jsonPathAsNumber(db, c, path));
        // eslint-disable-next-line no-loss-of-precision -- a literal that rounds is one of the cases
        for (const n of [10, -1.5, 0, 1e300, 5e-324, 123456789.123456789, 2 ** 53 + 2]) expect(await num(n), String(n)).toBe(n);
        expect(await num(true)).toBeNull();
        expect(await num(null)).toBeNull();
        expect(await num({ a: 1 })).toBeNull();
        expect(await num([1])).toBeNull();
        expect(await num(1, ['missing'])).toBeNull();
        expect(await num(7, [])).toBeNull(); // the whole document is an object
        for (const s of NUMBER_STRINGS) expect(await num(s), JSON.stringify(s)).toBe(expectedNumber(s));
      });

      it('jsonPathAsNumber orders numbers and numeric strings together, NULLs apart', async () => {
        const db = getDb();
        const values: unknown[] = [10, '9', '10abc', 2.5, '-1e1', null, true];
        const sorted = await orderedBy(db, column, 'numsort', values, (c) => jsonPathAsNumber(db, c, ['k']));
        expect(sorted).toEqual([-10, 2.5, 9, 10]);
      });

      it('textContains matches literally, optionally ignoring ASCII case only', async () => {
        const db = getDb();
        const contains = (hay: string, needle: string, caseInsensitive = false) =>
          evalOn(
            db,
            column,
            { v: hay },
            (c) =>
              sql<
                number | boolean
              >`case when ${textContains(db, jsonPathAsText(db, c, ['v']), needle, { caseInsensitive })} then 1 else 0 end`,
          );
        expect(await contains('Hello World', 'World')).toBe(1);
        expect(await contains('Hello World', 'world')).toBe(0);
        expect(await contains('Hello World', 'world', true)).toBe(1);
        expect(await contains('Hello World', 'HELLO w', true)).toBe(1);
        expect(await contains('100% sure_x', '0% s')).toBe(1);
        expect(await contains('abc', '%')).toBe(0); // not a LIKE wildcard
        expect(await contains('abc', '_')).toBe(0);
        expect(await contains('abc', '')).toBe(1);
        expect(await contains('ÉCOLE', 'école', true)).toBe(0); // non-ASCII letters are not folded
        expect(await contains('école', 'école', true)).toBe(1);
      });
    });
  }

  it('maxBindParameters is the real limit', async () => {
    const db = getDb();
    const inList = (n: number) =>
      sql<{
        n: number;
      }>`select count(*) as n from rows where project_id in (${sql.join(Array.from({ length: n }, (_, i) => `p${i}`))})`.execute(db.kysely);
    const max = maxBindParameters(db);
    await expect(inList(max)).resolves.toMatchObject({ rows: [{ n: 0 }] });
    await expect(inList(max + 1)).rejects.toThrow();
  });

  it('NULL placement differs by default, and nullsLast() makes it agree', async () => {
    const db = getDb();
    await db.kysely
      .insertInto('calls')
      .values(['b', 'a', null].map((op_name, i) => ({ project_id: 'nulls/p', id: `c${i}`, op_name })))
      .execute();
    const order = async (nullsLast: boolean) =>
      (
        await db.kysely
          .selectFrom('calls')
          .select('op_name')
          .where('project_id', '=', 'nulls/p')
          .orderBy('op_name', (ob) => (nullsLast ? ob.asc().nullsLast() : ob.asc()))
          .execute()
      ).map((r) => r.op_name);
    expect(await order(false)).toEqual(db.dialect === 'postgres' ? ['a', 'b', null] : [null, 'a', 'b']);
    expect(await order(true)).toEqual(['a', 'b', null]);
  });
});

describe('datetimes', () => {
  it('nowIso is fixed-width ISO-8601 UTC with milliseconds', () => {
    expect(nowIso()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('toIsoDatetime normalises to the stored form', () => {
    expect(toIsoDatetime('2025-01-02T03:04:05.123456Z')).toBe('2025-01-02T03:04:05.123Z');
    expect(toIsoDatetime('2025-01-02T03:04:05+02:00')).toBe('2025-01-02T01:04:05.000Z');
    expect(toIsoDatetime('2025-01-02T03:04:05.5')).toBe('2025-01-02T03:04:05.500Z'); // no offset: UTC
    expect(toIsoDatetime('2025-01-02 03:04:05')).toBe('2025-01-02T03:04:05.000Z');
    expect(toIsoDatetime(new Date(Date.UTC(2025, 0, 2)))).toBe('2025-01-02T00:00:00.000Z');
    expect(toIsoDatetime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(() => toIsoDatetime('yesterday')).toThrow(RangeError);
    expect(() => toIsoDatetime(Date.UTC(10000, 0, 1))).toThrow(RangeError);
  });
});

// Strings and what ClickHouse's toFloat64OrNull-like rule makes of them (see expectedNumber).
const NUMBER_STRINGS = [
  '10',
  '-1.5',
  '+10',
  '.5',
  '5.',
  '-.5e-3',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '007',
  '0',
  '-0',
  '0.1',
  '123456789.123456789',
  '1.5e-7',
  '1e308',
  '1.7976931348623157e308',
  '5e-324',
  '1e-320',
  '1e9999',
  '-1e9999',
  '1e-9999',
  '2e308',
  '1e99999',
  `${'0'.repeat(999)}1`,
  `${'0'.repeat(1000)}1`,
  '10abc',
  'abc',
  '',
  ' 10',
  '10 ',
  '\t10',
  '1e',
  'e5',
  '.',
  '-',
  '+',
  '1e5.5',
  '1.2.3',
  '1e1e1',
  '1e+-5',
  '--1',
  '+-1',
  '1-2',
  '0x10',
  'inf',
  'Infinity',
  '-Infinity',
  'NaN',
  'nan',
  '1_000',
  '1,5',
  '１０',
  'true',
  'null',
  '1#5',
  '1e#5',
];

const NUMBER_STRING_GRAMMAR = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?$/;
function expectedNumber(s: string): number | null {
  if (s.length > 1000 || !NUMBER_STRING_GRAMMAR.test(s)) return null;
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  return n === 0 ? 0 : n; // no negative zero
}
