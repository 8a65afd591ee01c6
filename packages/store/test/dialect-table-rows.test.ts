// jsonPathsReadOnce reads each path of a table row's value once (PostgreSQL: a LATERAL item) and
// hands the terms what to read: they must answer exactly as terms reading the row directly.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { asWritten, jsonPathAsNumber, jsonPathAsText, jsonPathType, jsonPathsReadOnce, jsonTextAsWritten } from '../src/db/index.ts';
import { describeEachDialect } from './dialects.ts';

// Keys in an order jsonb would not keep, a number spelt as sent, a numeric string, nesting.
const ROW = '{"z":{"b":1,"a":[2,"x"]},"n":1.50,"s":"10","arr":[null,{"deep":true}]}';
const PATHS: string[][] = [['z'], ['n'], ['s'], ['arr', '1', 'deep'], ['arr', '0'], ['missing'], ['z', 'a', '1']];

describeEachDialect('dialect-table-rows', (getDb) => {
  it('jsonPathsReadOnce: type, number and text terms answer as direct reads of the row', async () => {
    const db = getDb();
    await sql`insert into rows (project_id, digest, val) values ('once/p', 'r1', ${jsonTextAsWritten(db, ROW)})`.execute(db.kysely);
    const once = jsonPathsReadOnce(db, asWritten('r.val'), PATHS, 'sk');
    const terms = PATHS.flatMap((path, i) => {
      const value = once.value(i);
      const text = once.text(i);
      return [
        sql`${jsonPathType(db, value.source, value.path)} as ${sql.ref(`t${i}`)}`,
        sql`${jsonPathAsNumber(db, value.source, value.path)} as ${sql.ref(`n${i}`)}`,
        sql`${jsonPathAsText(db, text.source, text.path)} as ${sql.ref(`x${i}`)}`,
      ];
    });
    const direct = PATHS.flatMap((path, i) => [
      sql`${jsonPathType(db, asWritten('r.val'), path)} as ${sql.ref(`t${i}`)}`,
      sql`${jsonPathAsNumber(db, asWritten('r.val'), path)} as ${sql.ref(`n${i}`)}`,
      sql`${jsonPathAsText(db, asWritten('r.val'), path)} as ${sql.ref(`x${i}`)}`,
    ]);
    const lateral = once.from ? sql`cross join lateral ${once.from}` : sql``;
    const read = await sql<Record<string, unknown>>`select ${sql.join(terms)} from rows as r ${lateral}
      where r.project_id = 'once/p'`.execute(db.kysely);
    const expected = await sql<Record<string, unknown>>`select ${sql.join(direct)} from rows as r
      where r.project_id = 'once/p'`.execute(db.kysely);
    expect(read.rows).toEqual(expected.rows);
    // The text term reads the value as written: keys in the order sent, the number as spelt.
    expect(read.rows[0]).toMatchObject({ t0: 'object', x0: '{"b":1,"a":[2,"x"]}', x1: '1.50', n2: 10, t3: 'boolean', t5: null });
    // Only PostgreSQL reads the paths in a FROM item of their own.
    expect(once.from === null).toBe(db.dialect === 'sqlite');
  });
});
