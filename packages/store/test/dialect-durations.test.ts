// isoDiffMs gives exact whole milliseconds on both databases, across day, year and leap-day
// edges; doubleParam computes in IEEE doubles on both (the same bits for the same formula).
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { averageAsDouble, castDouble, doubleParam, isoDiffMs } from '../src/db/dialect-durations.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('dialect-durations', (getDb) => {
  it('isoDiffMs: exact milliseconds between stored datetimes; NULL with a NULL', async () => {
    const db = getDb();
    const cases: [string, string | null, number | null][] = [
      ['2025-06-03T23:59:59.999Z', '2025-06-04T00:00:00.001Z', 2],
      ['2024-12-31T23:59:59.500Z', '2025-01-01T00:00:00.250Z', 750],
      ['2024-02-28T12:00:00.000Z', '2024-03-01T12:00:00.001Z', 2 * 86_400_000 + 1],
      ['2025-06-03T09:41:27.512Z', '2025-06-03T09:41:27.512Z', 0],
      ['2025-06-03T09:41:27.512Z', null, null],
    ];
    for (const [start, end, ms] of cases) {
      const { rows } = await sql<{ d: number | string | null }>`select ${isoDiffMs(db.dialect, sql`${end}`, sql`${start}`)} as d`.execute(
        db.kysely,
      );
      const d = rows[0]!.d;
      expect(d === null ? null : Number(d), `${start} → ${end}`).toBe(ms);
    }
  });

  it('doubleParam: the interpolation formula in doubles, bit for bit', async () => {
    const db = getDb();
    const q = doubleParam(db.dialect, 0.99);
    const { rows } = await sql<{ p: number }>`select 1000 * ((1 + 1) - ${q} * 2) + 3500 * (${q} * 2 - 1) as p`.execute(db.kysely);
    expect(Number(rows[0]!.p)).toBe(1000 * (1 + 1 - 0.99 * 2) + 3500 * (0.99 * 2 - 1));
  });

  it('castDouble and averageAsDouble: integers computed with as doubles, answered as JS numbers', async () => {
    const db = getDb();
    const { rows } = await sql<{ half: unknown; avg: unknown }>`select ${castDouble(db.dialect, sql`7`)} / 2 as half,
        ${averageAsDouble(db.dialect, sql.ref('v'))} as avg
      from (select 1 as v union all select 2 union all select 2) as t`.execute(db.kysely);
    // An integer division would give 3; PostgreSQL's numeric avg would come back as a string.
    expect(rows[0]).toEqual({ half: 3.5, avg: 5 / 3 });
  });
});
