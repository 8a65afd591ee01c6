// bytewiseText compares stored text as JS compares ASCII text, on both databases: upper case
// before lower case, digits before letters, whatever the PostgreSQL database's own collation.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { bytewiseText } from '../src/db/index.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('dialect bytewiseText', (getDb) => {
  it('sorts and compares code unit by code unit', async () => {
    const db = getDb();
    const values = ['b', 'B', 'a', 'A', '_a', '2025-01-02T00:00:00.000Z', '2025-01-01T23:59:59.999Z', 'a b', 'ab'];
    // On PostgreSQL each value carries a linguistic collation (ICU's root locale, which orders
    // 'a' before 'B'), as a column or database of its own might: bytewiseText must override it.
    const text = (v: string) => (db.dialect === 'postgres' ? sql`(cast(${v} as text) collate "und-x-icu")` : sql`${v}`);
    const list = sql.join(
      values.map((v) => sql`select ${text(v)} as v`),
      sql` union all `,
    );
    const { rows } = await sql<{ v: string }>`select v from (${list}) as t order by ${bytewiseText(db, sql.ref('v'))}`.execute(db.kysely);
    expect(rows.map((r) => r.v)).toEqual([...values].sort());
    const less = await sql<{
      lt: unknown;
    }>`select case when ${bytewiseText(db, text('Z'))} < ${bytewiseText(db, text('a'))} then 1 else 0 end as lt`.execute(db.kysely);
    expect(Number(less.rows[0]!.lt)).toBe(1);
  });
});
