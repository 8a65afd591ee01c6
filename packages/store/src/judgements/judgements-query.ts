// judgements/query: a project's judgements, newest first (judgements_created_idx).
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { judgementOf } from './judgement-rows.ts';

export async function judgementsQuery(db: Db, req: T.JudgementsQueryReq): Promise<T.JudgementsQueryRes> {
  let q = db.kysely.selectFrom('judgements').selectAll().where('project_id', '=', req.project_id);
  if (req.monitor_ref != null) {
    q = req.monitor_ref.endsWith(':*')
      ? q.where('source_key', '=', `monitor:${monitorName(req.monitor_ref)}`)
      : q.where('monitor_ref', '=', req.monitor_ref);
  }
  if (req.scorer_ref != null) q = q.where('scorer_ref', '=', req.scorer_ref);
  if (req.call_ids != null) q = req.call_ids.length ? q.where('call_id', 'in', req.call_ids) : q.where((eb) => eb.lit(false));
  if (req.states != null) q = req.states.length ? q.where('state', 'in', req.states) : q.where((eb) => eb.lit(false));
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(req.limit ?? 100)
    .offset(req.offset ?? 0)
    .execute();
  return { judgements: rows.map(judgementOf) };
}

/** `weave:///e/p/object/<name>:<version>` → name (what a monitor's judgements are keyed by). */
export function monitorName(ref: string): string {
  const tail = ref.slice(ref.lastIndexOf('/') + 1);
  const colon = tail.lastIndexOf(':');
  return colon < 0 ? tail : tail.slice(0, colon);
}
