// Writing and reading judgement rows, shared by calls/score, the monitors and the judges.
import { uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import type { Kysely, Selectable } from 'kysely';
import type { Database, JudgementsTable } from '../db/index.ts';

export interface NewJudgement {
  project_id: string;
  source_key: string;
  monitor_ref: string | null;
  scorer_ref: string;
  call_id: string;
  requested_by: string;
}

const CHUNK = 200;

/** Inserts what is not there yet (the same source, scorer and call): answers how many were new. */
export async function insertJudgements(kysely: Kysely<Database>, rows: readonly NewJudgement[], now: string): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r) => ({
      ...r,
      id: uuidv7(),
      feedback_id: uuidv7(),
      state: 'queued' as const,
      attempts: 0,
      due_at: now,
      judge_call_id: null,
      cost_usd: null,
      error: null,
      created_at: now,
      updated_at: now,
    }));
    const res = await kysely
      .insertInto('judgements')
      .values(values)
      .onConflict((oc) => oc.columns(['project_id', 'source_key', 'scorer_ref', 'call_id']).doNothing())
      .returning('id')
      .execute();
    inserted += res.length;
  }
  return inserted;
}

export type JudgementRow = Selectable<JudgementsTable>;

export function judgementOf(r: JudgementRow): T.Judgement {
  return {
    id: r.id,
    call_id: r.call_id,
    scorer_ref: r.scorer_ref,
    monitor_ref: r.monitor_ref,
    state: r.state,
    attempts: Number(r.attempts),
    judge_call_id: r.judge_call_id,
    feedback_id: r.feedback_id,
    cost_usd: r.cost_usd,
    error: r.error,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
