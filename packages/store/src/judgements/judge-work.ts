// The judges' side of the judgements table (not operations: apps/server/src/judges/ calls them).
//
// A judge claims due rows (queued and due, or running with a claim that lapsed: a judge that died)
// by moving them to running with a new lapse time and one more attempt, each row by a conditional
// update on what it read, so two judges (replicas) never both hold one. It settles a row it holds:
// done, queued again for later, or failed. Settling checks the claim (state and attempts), so a
// judge whose claim lapsed and was taken over cannot overwrite the new holder's outcome.
import { add, formatDecimal, parseDecimal } from '@weft/core';
import type { Db } from '../db/index.ts';
import { type JudgementRow } from './judgement-rows.ts';

export type ClaimedJudgement = JudgementRow;

export async function claimJudgements(db: Db, opts: { limit: number; leaseMs: number; now?: Date }): Promise<ClaimedJudgement[]> {
  const now = opts.now ?? new Date();
  const nowIso = now.toISOString();
  const due = await db.kysely
    .selectFrom('judgements')
    .selectAll()
    .where('state', 'in', ['queued', 'running'])
    .where('due_at', '<=', nowIso)
    .orderBy('due_at')
    .limit(opts.limit)
    .execute();
  const lapse = new Date(now.getTime() + opts.leaseMs).toISOString();
  const claimed: ClaimedJudgement[] = [];
  for (const row of due) {
    const res = await db.kysely
      .updateTable('judgements')
      .set({ state: 'running', due_at: lapse, attempts: Number(row.attempts) + 1, updated_at: nowIso })
      .where('project_id', '=', row.project_id)
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .where('attempts', '=', row.attempts)
      .where('due_at', '=', row.due_at)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) claimed.push({ ...row, state: 'running', due_at: lapse, attempts: Number(row.attempts) + 1 });
  }
  return claimed;
}

export type JudgementOutcome =
  /** Not judged yet and not an attempt: the call is still running (monitors queue such calls too). */
  | { state: 'waiting'; due_at: Date }
  | { state: 'done'; judge_call_id: string | null; cost_usd: string | null }
  | { state: 'queued'; due_at: Date; error: string; judge_call_id: string | null; cost_usd: string | null }
  | { state: 'failed'; error: string; judge_call_id: string | null; cost_usd: string | null };

/** Settles a claimed judgement; false when the claim was lost (lapsed and taken over). */
export async function settleJudgement(db: Db, held: ClaimedJudgement, outcome: JudgementOutcome): Promise<boolean> {
  const updated_at = new Date().toISOString();
  const set =
    outcome.state === 'waiting'
      ? { state: 'queued' as const, due_at: outcome.due_at.toISOString(), attempts: held.attempts - 1, updated_at }
      : {
          state: outcome.state,
          due_at: outcome.state === 'queued' ? outcome.due_at.toISOString() : held.due_at,
          error: outcome.state === 'done' ? null : outcome.error,
          judge_call_id: outcome.judge_call_id ?? held.judge_call_id,
          cost_usd: sumCosts(held.cost_usd, outcome.cost_usd),
          updated_at,
        };
  const res = await db.kysely
    .updateTable('judgements')
    .set(set)
    .where('project_id', '=', held.project_id)
    .where('id', '=', held.id)
    .where('state', '=', 'running')
    .where('attempts', '=', held.attempts)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Exact USD over attempts; null until one was priced. */
function sumCosts(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return formatDecimal(add(parseDecimal(a), parseDecimal(b)));
}
