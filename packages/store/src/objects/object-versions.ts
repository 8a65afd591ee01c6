// What every write to one object's versions shares: the per-object lock and the is_latest flag.
//
// Invariant kept by these writers (under the lock): exactly one live version of an object has
// is_latest = 1 when it has any live version; deleted versions have 0.
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../db/index.ts';
import { lockKey } from '../db/lock.ts';

/**
 * Runs `work` in a transaction holding the object's lock, so writers of one object's versions
 * are serialised across replicas; resolves once committed. READ COMMITTED whatever the server's
 * default: each statement after the lock must see what the previous holder committed.
 */
export function withObjectLock<R>(
  db: Db,
  projectId: string,
  objectId: string,
  work: (trx: Transaction<Database>) => Promise<R>,
): Promise<R> {
  return db.kysely
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      // JSON: unambiguous whatever characters the ids contain.
      await lockKey(trx, db.dialect, JSON.stringify(['objects', projectId, objectId]));
      return work(trx);
    });
}

/** Makes `digest` the latest version (it must be live). */
export async function setLatest(trx: Transaction<Database>, projectId: string, objectId: string, digest: string): Promise<void> {
  await trx
    .updateTable('objects')
    .set({ is_latest: 0 })
    .where('project_id', '=', projectId)
    .where('object_id', '=', objectId)
    .where('is_latest', '=', sql.lit(1))
    .where('digest', '!=', digest)
    .execute();
  await trx
    .updateTable('objects')
    .set({ is_latest: 1 })
    .where('project_id', '=', projectId)
    .where('object_id', '=', objectId)
    .where('digest', '=', digest)
    .execute();
}

/**
 * After deletions: the most recent surviving version (by created_at, then version_index) becomes
 * the latest, unless a live version already is.
 */
export async function repointLatest(trx: Transaction<Database>, projectId: string, objectId: string): Promise<void> {
  const current = await trx
    .selectFrom('objects')
    .select('digest')
    .where('project_id', '=', projectId)
    .where('object_id', '=', objectId)
    .where('is_latest', '=', sql.lit(1))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (current) return;
  const next = await trx
    .selectFrom('objects')
    .select('digest')
    .where('project_id', '=', projectId)
    .where('object_id', '=', objectId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('version_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (next) await setLatest(trx, projectId, objectId, next.digest);
}
