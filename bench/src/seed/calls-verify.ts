// Whether a database holds exactly scenario 11's calls: each project's number of calls per op
// name as the generator makes them, and the sampled calls (the ones the seed rewrote through the
// store) column by column as the store writes them.
import type { Db } from '@weft/store';
import { progress } from '../progress.ts';
import { rowDifferences, storedRow, storedRows, type CallRow } from './calls-rows.ts';
import { samplePositions } from './calls-seed.ts';
import { CALL_PROJECTS, generateCalls } from './calls-spec.ts';
import type { SeedSpec } from './spec.ts';

/** Empty when the calls are all there; otherwise what is wrong. Read-only. */
export async function verifyCalls(db: Db, spec: SeedSpec): Promise<string[]> {
  const problems: string[] = [];
  for (const project of ['large', 'small'] as const) {
    const projectId = CALL_PROJECTS[project];
    const count = spec.calls[project];
    const bar = progress(`verifying ${projectId} against the generator`, count);
    const positions = samplePositions(count);
    const expectedOps = new Map<string, number>();
    const sample: CallRow[] = [];
    let n = 0;
    for (const call of generateCalls(project, count)) {
      expectedOps.set(call.start.op_name, (expectedOps.get(call.start.op_name) ?? 0) + 1);
      if (positions.has(n)) sample.push(storedRow(call));
      if (n % 50_000 === 0) bar.tick(n);
      n++;
    }
    bar.done();
    const ops = await db.kysely
      .selectFrom('calls')
      .select(['op_name', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .groupBy('op_name')
      .execute();
    const stored = new Map(ops.map((r) => [r.op_name, Number(r.n)]));
    const sameOps = stored.size === expectedOps.size && [...expectedOps].every(([op, k]) => stored.get(op) === k);
    if (!sameOps) problems.push(`${projectId}: the calls per op name differ from the generator's`);
    const rows = await storedRows(
      db,
      projectId,
      sample.map((r) => r.id as string),
    );
    for (const row of sample) problems.push(...rowDifferences(db, rows.get(row.id as string), row));
  }
  return problems;
}

/** Whether neither calls project holds anything yet. */
export async function callsUnseeded(db: Db): Promise<boolean> {
  const some = await db.kysely
    .selectFrom('calls')
    .select('id')
    .where('project_id', 'in', [CALL_PROJECTS.large, CALL_PROJECTS.small])
    .limit(1)
    .executeTakeFirst();
  return !some;
}
