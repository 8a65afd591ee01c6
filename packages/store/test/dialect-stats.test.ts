// The feedback-statistics helpers on both databases: values read by type at key paths (digit
// keys are keys, numbers beyond a double are NULL), bucket indexes, and byte-exact prefixes.
import { sql, type RawBuilder } from 'kysely';
import { expect, it } from 'vitest';
import { jsonText } from '../src/db/dialect-helpers.ts';
import {
  bucketIndex,
  jsonKeysBoolean,
  jsonKeysNumber,
  jsonKeysString,
  lastPathSegment,
  refObjectId,
  textStartsWith,
  withoutLastPathSegment,
} from '../src/db/dialect-stats.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('dialect-stats', (getDb) => {
  it('reads a number, a boolean or a string at a key path, and NULL for any other value', async () => {
    const db = getDb();
    const doc = jsonText(db, '{"a":{"1":2.5,"b":true,"s":"7","big":1e400,"n":null},"list":[10,11],"sp ace":{"k":false}}');
    const read = async (f: (...args: Parameters<typeof jsonKeysNumber>) => RawBuilder<unknown>, keys: string[]) => {
      const { rows } = await sql<{ v: unknown }>`select ${f(db.dialect, sql`${doc}`, keys)} as v`.execute(db.kysely);
      const v = rows[0]!.v;
      return typeof v === 'string' && f !== jsonKeysString ? Number(v) : v;
    };
    expect(await read(jsonKeysNumber, ['a', '1'])).toBe(2.5);
    expect(await read(jsonKeysNumber, ['a', 's'])).toBeNull(); // a numeric string is no number
    expect(await read(jsonKeysNumber, ['a', 'big'])).toBeNull();
    expect(await read(jsonKeysNumber, ['a', 'b'])).toBeNull();
    expect(await read(jsonKeysNumber, ['list', '0'])).toBeNull(); // "0" is a key, not an index
    expect(await read(jsonKeysNumber, ['missing'])).toBeNull();
    expect(Number(await read(jsonKeysBoolean, ['a', 'b']))).toBe(1);
    expect(Number(await read(jsonKeysBoolean, ['sp ace', 'k']))).toBe(0);
    expect(await read(jsonKeysBoolean, ['a', 'n'])).toBeNull();
    expect(await read(jsonKeysString, ['a', 's'])).toBe('7');
    expect(await read(jsonKeysString, ['a', '1'])).toBeNull();
  });

  it('bucketIndex counts whole buckets from the one holding the start; textStartsWith compares code points exactly', async () => {
    const db = getDb();
    const index = async (iso: string) => {
      // The bucket holding 09:10 starts 10 minutes before it.
      const b = bucketIndex(db.dialect, sql`${iso}`, Date.parse('2025-06-03T09:10:00.000Z') - 600_000, 900_000);
      return Number((await sql<{ b: unknown }>`select ${b} as b`.execute(db.kysely)).rows[0]!.b);
    };
    expect(await index('2025-06-03T09:10:00.000Z')).toBe(0);
    expect(await index('2025-06-03T09:14:59.999Z')).toBe(0);
    expect(await index('2025-06-03T09:15:00.000Z')).toBe(1);
    expect(await index('2025-06-04T09:00:00.000Z')).toBe(96);
    const starts = async (text: string, prefix: string) =>
      Boolean(
        Number(
          (
            await sql<{ s: unknown }>`select case when ${textStartsWith(db.dialect, sql`${text}`, prefix)} then 1 else 0 end as s`.execute(
              db.kysely,
            )
          ).rows[0]!.s,
        ),
      );
    expect(await starts('weave:///é/monitor:v1', 'weave:///é/monitor')).toBe(true);
    expect(await starts('weave:///e/monitor:v1', 'weave:///é/monitor')).toBe(false);
    expect(await starts('Monitor', 'monitor')).toBe(false);
    expect(await starts('mon', 'monitor')).toBe(false);
  });

  it("reads path segments and a ref's object id as ClickHouse splits them", async () => {
    const db = getDb();
    const text = async (expr: RawBuilder<unknown>) => (await sql<{ v: string }>`select ${expr} as v`.execute(db.kysely)).rows[0]!.v;
    const v = (x: string | null) => sql`${x}`;
    expect(await text(lastPathSegment(v('weave:///e/p/op/tone:abc')))).toBe('tone:abc');
    expect(await text(lastPathSegment(v('plain')))).toBe('plain');
    expect(await text(lastPathSegment(v('ends/')))).toBe('');
    expect(await text(lastPathSegment(v(null)))).toBe('');
    expect(await text(lastPathSegment(withoutLastPathSegment(v('weave:///e/p/agent_turn/x1'))))).toBe('agent_turn');
    expect(await text(lastPathSegment(withoutLastPathSegment(v('x1'))))).toBe('');
    expect(await text(refObjectId(db.dialect, v('weave:///e/p/op/tone:abc')))).toBe('tone');
    expect(await text(refObjectId(db.dialect, v('weave:///e/p/object/é-mon')))).toBe('é-mon');
    expect(await text(refObjectId(db.dialect, v(null)))).toBe('');
  });
});
