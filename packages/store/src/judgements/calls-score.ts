// calls/score (Weave's route): one judgement per call and scorer, queued durably in one
// transaction; the server's judges do the work (apps/server/src/judges/). Every scorer must be
// an LLMAsAJudgeScorer object of the project and every call a live call of it, else 422 naming
// the index: nothing is queued for a request with one bad item.
import { invalidField, parseWeaveRef, readJudgeScorer, uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, readJson, type Db } from '../db/index.ts';
import { insertJudgements, type NewJudgement } from './judgement-rows.ts';

/** Judgements one request may queue (calls × scorers): one transaction, bounded. */
export const MAX_JUDGEMENTS_PER_REQUEST = 10_000;
const CHUNK = 500;

export async function callsScore(db: Db, req: T.CallsScoreReq, user: string): Promise<T.CallsScoreRes> {
  const callIds = [...new Set(req.call_ids)];
  const scorers = [...new Set(req.scorer_refs)];
  if (callIds.length * scorers.length > MAX_JUDGEMENTS_PER_REQUEST) {
    throw invalidField(
      ['body', 'call_ids'],
      `calls × scorers is ${callIds.length * scorers.length}: at most ${MAX_JUDGEMENTS_PER_REQUEST} judgements per request`,
    );
  }
  for (const [i, ref] of req.scorer_refs.entries()) {
    const problem = await scorerProblem(db, req.project_id, ref);
    if (problem) throw invalidField(['body', 'scorer_refs', String(i)], problem);
  }
  const found = new Set<string>();
  for (let i = 0; i < callIds.length; i += CHUNK) {
    const rows = await db.kysely
      .selectFrom('calls')
      .select('id')
      .where('project_id', '=', req.project_id)
      .where('id', 'in', callIds.slice(i, i + CHUNK))
      .where('deleted_at', 'is', null)
      .execute();
    for (const r of rows) found.add(r.id);
  }
  const missing = req.call_ids.findIndex((id) => !found.has(id));
  if (missing >= 0)
    throw invalidField(['body', 'call_ids', String(missing)], `no call ${req.call_ids[missing]} in project ${req.project_id}`);

  const now = nowIso();
  const source_key = `request:${uuidv7()}`;
  const rows: NewJudgement[] = [];
  for (const call_id of callIds) {
    for (const scorer_ref of scorers)
      rows.push({ project_id: req.project_id, source_key, monitor_ref: null, scorer_ref, call_id, requested_by: user });
  }
  const queued = await db.kysely.transaction().execute((tx) => insertJudgements(tx, rows, now));
  return { queued };
}

/** Why `ref` cannot judge calls of `projectId`, or undefined when it can. */
export async function scorerProblem(db: Db, projectId: string, ref: string): Promise<string | undefined> {
  const parsed = parseWeaveRef(ref);
  if ('error' in parsed || parsed.kind !== 'object') return `${ref} is not an object ref`;
  if (parsed.projectId !== projectId) return `${ref} is not an object of project ${projectId}`;
  let query = db.kysely
    .selectFrom('objects')
    .select('val')
    .where('project_id', '=', projectId)
    .where('object_id', '=', parsed.name)
    .where('deleted_at', 'is', null);
  query = parsed.version === 'latest' ? query.where('is_latest', '=', 1) : query.where('digest', '=', parsed.version);
  const row = await query.executeTakeFirst();
  if (!row) return `${ref} not found`;
  const scorer = readJudgeScorer(readJson(db, row.val));
  return 'error' in scorer ? `${ref} ${scorer.error}` : undefined;
}
