// Scenario 15's additions to scenario 11's two calls projects, which hold neither threads nor
// feedback: the same bounded set of conversation threads in each (turn calls inside the window a
// dashboard reads), and feedback scores in proportion to each project's calls (one per ten), spread
// over the seed's 30 days. Written as the rows the store writes, removed again before and after the
// scenario, so the seed of a reused PostgreSQL database still verifies.
import type { Db } from '@weft/store';
import { insertRows, SEED_USER, type CallRow } from '../seed/calls-rows.ts';
import { CALL_PROJECTS, opRef, SPAN_MS, SPAN_START_MS, type CallProject } from '../seed/calls-spec.ts';

/** Marks every row this scenario writes (thread ids, call ids, feedback ids). */
const MARK = 'statsbench';
export const THREADS = 300;
/** One feedback row per this many calls of the project. */
export const CALLS_PER_FEEDBACK = 10;
export const FEEDBACK_TYPE = 'wandb.runnable.relevance';

export interface Turn {
  thread_id: string;
  started_at: string;
  ended_at: string;
}

export interface FeedbackScore {
  created_at: string;
  score: number;
}

/** The turns of THREADS threads, 1 to 8 turns each, a minute apart, starting at `fromMs`. */
export function threadTurns(fromMs: number, spanMs: number): Turn[] {
  const turns: Turn[] = [];
  for (let t = 0; t < THREADS; t++) {
    const start = fromMs + Math.floor(((t + 0.5) / THREADS) * (spanMs - 10 * 60_000));
    for (let k = 0; k < 1 + (t % 8); k++) {
      const s = start + k * 60_000 + (t % 13);
      turns.push({
        thread_id: `${MARK}-thread-${String(t).padStart(4, '0')}`,
        started_at: new Date(s).toISOString(),
        ended_at: new Date(s + 400 + ((t * 37 + k * 211) % 4000)).toISOString(),
      });
    }
  }
  return turns;
}

/** A score per CALLS_PER_FEEDBACK calls of the project, evenly over the seed's 30 days. */
export function feedbackScores(projectCalls: number): FeedbackScore[] {
  const n = Math.floor(projectCalls / CALLS_PER_FEEDBACK);
  return Array.from({ length: n }, (_, i) => ({
    created_at: new Date(SPAN_START_MS + Math.floor(((i + 0.5) / n) * SPAN_MS)).toISOString(),
    score: (i % 11) / 10,
  }));
}

export async function removeAdditions(db: Db, project: CallProject): Promise<void> {
  const projectId = CALL_PROJECTS[project];
  await db.kysely.deleteFrom('calls').where('project_id', '=', projectId).where('thread_id', 'like', `${MARK}-%`).execute();
  await db.kysely.deleteFrom('feedback').where('project_id', '=', projectId).where('id', 'like', `${MARK}-%`).execute();
}

export async function addThreads(db: Db, project: CallProject, turns: readonly Turn[]): Promise<void> {
  const projectId = CALL_PROJECTS[project];
  const ref = opRef(project, 'answer_question');
  const rows: CallRow[] = turns.map((turn, i) => {
    const id = `${MARK}-turn-${String(i).padStart(6, '0')}`;
    return {
      project_id: projectId,
      id,
      trace_id: id,
      parent_id: null,
      op_name: ref,
      display_name: null,
      thread_id: turn.thread_id,
      turn_id: id,
      started_at: turn.started_at,
      ended_at: turn.ended_at,
      attributes: '{}',
      inputs: JSON.stringify({ text: `turn ${i}` }),
      output: JSON.stringify({ result: 'ok' }),
      exception: null,
      summary: '{}',
      svc_user_id: SEED_USER,
      svc_username: null,
      svc_run_id: null,
      svc_run_step: null,
      svc_run_step_end: null,
      deleted_at: null,
      expire_at: null,
    };
  });
  await insertRows(db, rows);
}

export async function addFeedback(db: Db, project: CallProject, scores: readonly FeedbackScore[]): Promise<void> {
  const projectId = CALL_PROJECTS[project];
  const rows = scores.map((f, i) => ({
    project_id: projectId,
    id: `${MARK}-feedback-${String(i).padStart(7, '0')}`,
    weave_ref: `weave:///${projectId}/call/${MARK}-call-${i}`,
    feedback_type: FEEDBACK_TYPE,
    // The store's form: JSON text (SQLite), cast to jsonb from the untyped parameter (PostgreSQL).
    payload: JSON.stringify({ output: { score: f.score } }),
    creator: null,
    annotation_ref: null,
    runnable_ref: null,
    call_ref: null,
    trigger_ref: null,
    svc_user_id: SEED_USER,
    created_at: f.created_at,
    deleted_at: null,
    queue_id: null,
  }));
  for (let i = 0; i < rows.length; i += 2000) {
    await db.kysely
      .insertInto('feedback')
      .values(rows.slice(i, i + 2000) as never)
      .execute();
  }
}
