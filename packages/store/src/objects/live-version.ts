// The check the tag and alias writes share: the version they name is live.
import { notFound } from '@weft/core';
import type { Transaction } from 'kysely';
import type { Database } from '../db/index.ts';

/** Throws 404 unless (project, object, digest) is a live version; call under the object's lock. */
export async function requireLiveVersion(trx: Transaction<Database>, projectId: string, objectId: string, digest: string): Promise<void> {
  const live = await trx
    .selectFrom('objects')
    .select('digest')
    .where('project_id', '=', projectId)
    .where('object_id', '=', objectId)
    .where('digest', '=', digest)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!live) throw notFound(`Object version ${objectId}:${digest} not found`);
}
