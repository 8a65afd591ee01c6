// The first half of the retention sweep: calls whose expire_at has passed are deleted (for good:
// a soft-deleted call goes too) with every feedback row that points at them, a short write
// transaction per batch. The files they referenced are queued as candidates for sweep-files.ts.
//
// Everything that may read much (the expired calls' sizes, the strings inside their values) is a
// read outside the write transaction, through db.readLong: on a SQLite file a reader thread, so
// the event loop only ever waits for the small deletes. A batch is bounded in calls and in bytes
// of JSON, because deleting a row frees its pages inside the (synchronous, on SQLite) statement.
import { sql } from 'kysely';
import { callRef } from '../feedback/call-feedback.ts';
import { jsonStrings, type Db } from '../db/index.ts';
import { callStorageSize } from '../calls/storage-size.ts';

export interface CallBatchLimits {
  /** Calls a batch deletes at most. */
  calls: number;
  /** JSON bytes (inputs, output, attributes, summary) a batch deletes at most; one call always fits. */
  bytes: number;
}

export interface CallBatchResult {
  calls: number;
  feedback: number;
}

/** Expired calls read ahead of the batches, per project. */
const PAGE = 1000;
const VALUE_COLUMNS = ['inputs', 'output', 'attributes', 'summary'] as const;
/** Calls whose feedback one statement deletes: SQLite allows 500 terms in a compound SELECT. */
const REFS_PER_STATEMENT = 200;

/** Projects holding calls with an expiry, in id order: one seek each on the partial calls_expire_idx. */
export async function* projectsWithExpiringCalls(db: Db): AsyncGenerator<string> {
  let after: string | undefined;
  for (;;) {
    let query = db.kysely
      .selectFrom('calls')
      .select((eb) => eb.fn.min('project_id').as('project_id'))
      .where('expire_at', 'is not', null);
    if (after !== undefined) query = query.where('project_id', '>', after);
    const row = await query.executeTakeFirst();
    if (!row?.project_id) return;
    after = row.project_id;
    yield after;
  }
}

/** The next expired calls of a project (oldest expiry first), with their size, read off the main thread. */
export async function expiredCalls(db: Db, projectId: string, now: string): Promise<Array<{ id: string; size: number }>> {
  const query = db.kysely
    .selectFrom('calls')
    .select(['id', callStorageSize(db).as('size')])
    .where('project_id', '=', projectId)
    .where('expire_at', 'is not', null)
    .where('expire_at', '<=', now)
    .orderBy('expire_at')
    .limit(PAGE);
  const rows = await db.readLong<{ id: string; size: number | string }>(query.compile());
  return rows.map((r) => ({ id: r.id, size: Number(r.size) }));
}

/** Splits `calls` into batches within `limits`, in order. */
export function batchesOf<T extends { size: number }>(calls: readonly T[], limits: CallBatchLimits): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const call of calls) {
    if (current.length > 0 && (current.length >= limits.calls || bytes + call.size > limits.bytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(call);
    bytes += call.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Digests of the project's files that appear as a string anywhere in these calls' values
 * (Weave's custom objects name their files by digest: `{"files": {"image.png": "<digest>"}}`).
 */
async function filesReferencedBy(db: Db, projectId: string, ids: readonly string[]): Promise<string[]> {
  const branches = VALUE_COLUMNS.map((column) => {
    const s = jsonStrings(db, sql.ref(`c.${column}`));
    return sql`select ${s.value} as digest from calls as c, ${s.from}
      where c.project_id = ${projectId} and c.id in (${sql.join(ids)}) and ${s.isString}
        and exists (select 1 from files as f where f.project_id = c.project_id and f.digest = ${s.value})`;
  });
  const query = sql<{ digest: string }>`${sql.join(branches, sql` union `)}`.compile(db.kysely);
  return (await db.readLong<{ digest: string }>(query)).map((r) => r.digest);
}

/**
 * Deletes one batch of a project's calls if they are still expired at `now` (a start re-sent
 * meanwhile may have moved a call's expiry), with their feedback, and queues the files they
 * referenced, as of `queuedAt` (the time of this batch: their grace period starts there). One
 * short transaction.
 */
export async function deleteCallBatch(
  db: Db,
  projectId: string,
  ids: readonly string[],
  now: string,
  queuedAt: string = now,
): Promise<CallBatchResult> {
  const files = await filesReferencedBy(db, projectId, ids);
  return db.kysely.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('calls')
      .where('project_id', '=', projectId)
      .where('id', 'in', ids)
      .where('expire_at', '<=', now)
      .returning('id')
      .execute();
    if (deleted.length === 0) return { calls: 0, feedback: 0 };
    // Feedback on the call (`weave:///<project>/call/<id>`) or on a path inside it (`…/<id>/…`,
    // a range on feedback_call_type_idx: '0' is the character after '/'). One index search per
    // branch of a UNION ALL: an OR of ranges would be planned as a scan of the project's feedback.
    const refs = deleted.map((d) => callRef(projectId, d.id));
    let feedback = 0;
    for (let i = 0; i < refs.length; i += REFS_PER_STATEMENT) {
      const chunk = refs.slice(i, i + REFS_PER_STATEMENT);
      const result = await trx
        .deleteFrom('feedback')
        .where('project_id', '=', projectId)
        .where('id', 'in', (eb) => {
          const of = () => eb.selectFrom('feedback').select('id').where('project_id', '=', projectId);
          let ids = of().where('weave_ref', 'in', chunk);
          for (const ref of chunk) ids = ids.unionAll(of().where('weave_ref', '>', `${ref}/`).where('weave_ref', '<', `${ref}0`));
          return ids;
        })
        .executeTakeFirst();
      feedback += Number(result.numDeletedRows);
    }
    if (files.length > 0) {
      await trx
        .insertInto('retention_file_candidates')
        .values(files.map((digest) => ({ project_id: projectId, digest, queued_at: queuedAt })))
        // The latest expiry counts: the grace period starts again.
        .onConflict((oc) => oc.columns(['project_id', 'digest']).doUpdateSet((eb) => ({ queued_at: eb.ref('excluded.queued_at') })))
        .execute();
    }
    return { calls: deleted.length, feedback };
  });
}
