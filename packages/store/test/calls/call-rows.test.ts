// The upsert of calls is compiled once per statement shape and binds its values on each run
// (call-rows.ts). It must run exactly the statements the upsert built by Kysely on every call
// ran (same SQL text, same values) and leave exactly the same rows, on both databases: fresh
// inserts of every batch size, a re-sent span that replaces only the span's columns, ends that
// arrive first, an expiry anchored before year 1, and JSON text with U+0000 refused with nothing
// written.
import { sql, type CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { END_COLUMNS, SPAN_COLUMNS, START_COLUMNS, upsertCallRows, WHOLE_COLUMNS, type CallRow } from '../../src/calls/call-rows.ts';
import { isoPlusDays, jsonText, type Db } from '../../src/db/index.ts';
import { TABLE_COLUMNS } from '../../src/db/table-columns.ts';
import { describeEachDialect } from '../dialects.ts';

type Replace = Parameters<typeof upsertCallRows>[3];

// The reference: the upsert as built before, with Kysely expressions for the expiry and the JSON
// text, built and compiled again for every statement.
const EARLIEST = '0001-01-01T00:00:00.000Z';
const JSON_COLUMNS = new Set(['attributes', 'inputs', 'output', 'summary']);
// Kysely lists the columns in the order of the row's keys: here the table's order (its one column
// list), which call-rows.ts writes them in, so the two statements' texts can be compared.
const ORDER = Object.keys(TABLE_COLUMNS.calls).map((c) => (c === 'expire_at' ? 'expire_from' : c)) as (keyof CallRow)[];

function referenceRow(db: Db, row: CallRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ORDER) {
    const value = row[key];
    if (value === undefined) continue;
    if (key === 'expire_from') {
      const anchor = value as string;
      const from = anchor < EARLIEST ? EARLIEST : anchor;
      const expiry = isoPlusDays(db, sql`${from}`, sql.ref('retention_days'));
      out.expire_at = sql`(select ${expiry} from project_ttl_settings where project_id = ${row.project_id})`;
    } else if (JSON_COLUMNS.has(key) && value !== null) {
      out[key] = jsonText(db, value as string);
    } else {
      out[key] = value;
    }
  }
  return out;
}

async function referenceUpsert(db: Db, rows: readonly CallRow[], replace: Replace): Promise<void> {
  const built = rows.map((row) => referenceRow(db, row));
  const set = Object.fromEntries(replace.map((column) => [column, sql.ref(`excluded.${column}`)]));
  for (let at = 0; at < built.length;) {
    const size = Math.min(16, 2 ** Math.floor(Math.log2(built.length - at)));
    await db.kysely
      .insertInto('calls')
      .values(built.slice(at, at + size) as never)
      .onConflict((oc) => oc.columns(['project_id', 'id']).doUpdateSet(set))
      .execute();
    at += size;
  }
}

/** The statements `run` executes on `db`, with their values. */
async function executed(db: Db, run: () => Promise<void>): Promise<Pick<CompiledQuery, 'sql' | 'parameters'>[]> {
  const seen: Pick<CompiledQuery, 'sql' | 'parameters'>[] = [];
  const before = db.queryTiming.onQuery;
  db.queryTiming.onQuery = (_s, _failed, query) => void seen.push({ sql: query.sql, parameters: [...query.parameters] });
  try {
    await run();
  } finally {
    db.queryTiming.onQuery = before;
  }
  return seen;
}

// Rows of each kind, in the key order the test's reference writes its columns in.
const startOf = (project_id: string, i: number, round: number): CallRow => ({
  project_id,
  id: `c${i}`,
  trace_id: `t${i % 3}`,
  parent_id: i % 2 ? `c${i - 1}` : null,
  op_name: `op-${round}-${i}`,
  display_name: i % 3 ? `shown é ${i}` : null,
  thread_id: i % 4 ? null : 'thread',
  turn_id: null,
  started_at: `2026-0${1 + (i % 9)}-01T00:00:0${round}.000Z`,
  expire_from: `2026-0${1 + (i % 9)}-01T00:00:0${round}.000Z`,
  // An escaped backslash before "u0000" is text, not U+0000.
  attributes: JSON.stringify({ round, i, odd: i % 2 === 1, text: '\\u0000 is text' }),
  inputs: JSON.stringify({ messages: [{ role: 'user', content: `hello ${i} "quoted" ✓` }] }),
  svc_user_id: 'user',
  svc_run_id: i % 2 ? `run-${round}` : null,
  svc_run_step: i % 2 ? i * 10 + round : null,
});
const endOf = (project_id: string, i: number, round: number): CallRow => ({
  project_id,
  id: `c${i}`,
  ended_at: `2026-0${1 + (i % 9)}-02T00:00:0${round}.000Z`,
  expire_from: `2026-0${1 + (i % 9)}-02T00:00:0${round}.000Z`,
  output: i % 5 ? JSON.stringify({ answer: i * 1.5, round }) : 'null',
  exception: i % 7 ? null : `boom ${round}`,
  summary: JSON.stringify({ usage: { m: { tokens: i + round } } }),
  svc_run_step_end: i % 2 ? i * 10 + round + 1 : null,
});
const wholeOf = (p: string, i: number, round: number): CallRow => {
  const { expire_from, ...end } = endOf(p, i, round);
  void expire_from;
  return { ...startOf(p, i, round), ...end, expire_from: startOf(p, i, round).expire_from };
};
const spanOf = (p: string, i: number, round: number): CallRow => {
  const { svc_run_id, svc_run_step, svc_run_step_end, ...span } = wholeOf(p, i, round);
  void [svc_run_id, svc_run_step, svc_run_step_end];
  return span;
};

describeEachDialect('upsertCallRows, compiled once', (getDb) => {
  let db: Db;
  let suite = 0;
  const RETENTION_DAYS = 30;

  beforeAll(async () => {
    db = getDb();
  });

  /** Two fresh projects with the same retention (or none): one for each upsert. */
  async function projects(retentionDays: number | null): Promise<{ ours: string; ref: string }> {
    suite++;
    const ours = `rows/ours-${suite}`;
    const ref = `rows/ref-${suite}`;
    if (retentionDays !== null) {
      await db.kysely
        .insertInto('project_ttl_settings')
        .values([ours, ref].map((project_id) => ({ project_id, retention_days: retentionDays, updated_at: EARLIEST, updated_by: 'test' })))
        .execute();
    }
    return { ours, ref };
  }

  async function stored(project: string): Promise<Record<string, unknown>[]> {
    const rows = await db.kysely.selectFrom('calls').selectAll().where('project_id', '=', project).orderBy('id').execute();
    return rows.map(({ project_id, ...rest }) => (void project_id, rest));
  }

  /** Runs both upserts of the same rows (each in its project) and expects the same statements and rows. */
  async function both(p: { ours: string; ref: string }, make: (project: string) => CallRow[], replace: Replace): Promise<void> {
    const oursRows = make(p.ours);
    const refRows = make(p.ref);
    const ours = await executed(db, () => upsertCallRows(db, db.kysely, oursRows, replace));
    const ref = await executed(db, () => referenceUpsert(db, refRows, replace));
    const asRef = (s: Pick<CompiledQuery, 'sql' | 'parameters'>) => ({
      sql: s.sql,
      parameters: s.parameters.map((v) => (v === p.ours ? p.ref : v)),
    });
    expect(ours.map(asRef)).toEqual(ref);
    expect(await stored(p.ours)).toEqual(await stored(p.ref));
  }

  const range = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('writes every batch size as the statement built each time wrote it', async () => {
    for (const count of [1, 2, 3, 16, 21, 37]) {
      const p = await projects(RETENTION_DAYS);
      await both(p, (project) => range(count).map((i) => spanOf(project, i, 1)), SPAN_COLUMNS);
      expect(await stored(p.ours)).toHaveLength(count);
    }
  });

  it('merges starts, ends (an end first included) and wholes as before, the expiry NULL without a retention', async () => {
    for (const retention of [RETENTION_DAYS, null]) {
      const p = await projects(retention);
      const n = range(19);
      // Ends of the odd calls arrive first; starts of all; then ends of the even ones.
      await both(p, (project) => n.filter((i) => i % 2).map((i) => endOf(project, i, 1)), END_COLUMNS);
      await both(p, (project) => n.map((i) => startOf(project, i, 2)), START_COLUMNS);
      await both(p, (project) => n.filter((i) => i % 2 === 0).map((i) => endOf(project, i, 3)), END_COLUMNS);
      // A second whole write replaces both halves; the calls are new as well as stored.
      await both(p, (project) => range(25).map((i) => wholeOf(project, i, 4)), WHOLE_COLUMNS);
      const rows = await stored(p.ours);
      expect(rows).toHaveLength(25);
      expect(rows.every((r) => (retention === null ? r.expire_at === null : typeof r.expire_at === 'string'))).toBe(true);
    }
  });

  it('replaces only the span columns when a span is sent again', async () => {
    const p = await projects(RETENTION_DAYS);
    await both(p, (project) => range(5).map((i) => wholeOf(project, i, 1)), WHOLE_COLUMNS);
    await both(p, (project) => range(5).map((i) => spanOf(project, i, 2)), SPAN_COLUMNS);
    const [, second] = await stored(p.ours);
    // The span's columns are the new ones; the run's, which spans do not carry, are kept.
    expect(second).toMatchObject({
      op_name: 'op-2-1',
      started_at: '2026-02-01T00:00:02.000Z',
      svc_run_id: 'run-1',
      svc_run_step: 11,
      svc_run_step_end: 12,
    });
    expect(second!.expire_at).toBe('2026-03-03T00:00:02.000Z');
  });

  it('counts the expiry of a start before year 1 from the first instant of year 1', async () => {
    const p = await projects(RETENTION_DAYS);
    await both(
      p,
      (project) => [{ ...startOf(project, 0, 1), started_at: '0000-06-01T00:00:00.000Z', expire_from: '0000-06-01T00:00:00.000Z' }],
      START_COLUMNS,
    );
    // Then a start of year 1 and later, bound into the same statement: not the earlier clamp.
    await both(p, (project) => [{ ...startOf(project, 0, 2), expire_from: '0001-01-01T00:00:00.001Z' }], START_COLUMNS);
    const [call] = await stored(p.ours);
    expect(call!.expire_at).toBe('0001-01-31T00:00:00.001Z');
    const q = await projects(RETENTION_DAYS);
    await both(q, (project) => [{ ...startOf(project, 0, 1), expire_from: '0000-06-01T00:00:00.000Z' }], START_COLUMNS);
    expect((await stored(q.ours))[0]!.expire_at).toBe('0001-01-31T00:00:00.000Z');
  });

  describe('JSON text with U+0000', () => {
    for (const column of ['attributes', 'inputs', 'output', 'summary'] as const) {
      it(`is refused in ${column}, and nothing of the batch is written`, async () => {
        const p = await projects(RETENTION_DAYS);
        // The bad row comes in the third statement: the first two must not have been run.
        const rows = range(30).map((i) => wholeOf(p.ours, i, 1));
        rows[27] = { ...rows[27]!, [column]: JSON.stringify({ text: 'a\u0000b' }) };
        const seen = await executed(db, () => expect(upsertCallRows(db, db.kysely, rows, WHOLE_COLUMNS)).rejects.toThrow(/U\+0000/));
        expect(seen).toEqual([]);
        expect(await stored(p.ours)).toEqual([]);
        // The reference refused it too, and a good run after the refusal binds its own values.
        expect(() => referenceRow(db, rows[27]!)).toThrow(/U\+0000/);
        await both(p, (project) => range(30).map((i) => wholeOf(project, i, 2)), WHOLE_COLUMNS);
      });
    }
  });
});
