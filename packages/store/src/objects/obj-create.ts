// POST /obj/create: stores a version of an object, or finds it again.
//
// One transaction per create, which first takes the object's lock, so that replicas creating
// versions of the same object concurrently get contiguous version indexes, one latest version and
// one row per digest. The answer is sent only after the commit.
import { invalidField, digestMismatch, invalidRequest, isValidObjectId, objectClasses, objectKind } from '@weft/core';
import type * as T from '@weft/types';
import { jsonTextAsWritten, nowIso, type Db } from '../db/index.ts';
import type { LosslessContext } from '../store.ts';
import { setLatest, withObjectLock } from './object-versions.ts';
import { childNode, encodeValue } from './value-encoding.ts';

export async function objCreate(db: Db, req: T.ObjCreateReq, ctx: LosslessContext): Promise<T.ObjCreateRes> {
  const { project_id: projectId, object_id: objectId } = req.obj;
  if (typeof objectId !== 'string' || !isValidObjectId(objectId)) {
    throw invalidRequest(`Invalid object_id ${JSON.stringify(objectId)}: 1–128 letters, digits, '_', '.' or '-'`);
  }
  // Weave validates a builtin class's value against its own pydantic models; Weft has none of
  // them, so the class is refused (422, naming the field) rather than stored unchecked.
  for (const field of ['builtin_object_class', 'set_base_object_class'] as const) {
    if (req.obj[field] != null) throw invalidField(['body', 'obj', field], `${field} is not supported`, 'value_error');
  }

  const node = childNode(childNode(ctx.source, 'obj'), 'val');
  const encoded = encodeValue(req.obj.val, node);
  const expected = req.obj.expected_digest;
  if (expected != null && expected !== encoded.digest) throw digestMismatch(expected, encoded.digest);
  const classes = objectClasses(req.obj.val);
  const kind = objectKind(req.obj.val);

  await withObjectLock(db, projectId, objectId, async (trx) => {
    const existing = await trx
      .selectFrom('objects')
      .select(['deleted_at', 'is_latest'])
      .where('project_id', '=', projectId)
      .where('object_id', '=', objectId)
      .where('digest', '=', encoded.digest)
      .executeTakeFirst();

    if (existing && existing.deleted_at === null) {
      // Dedupe: nothing new, but re-publishing an old value makes it the latest again (newest
      // Weave). Its created_at stays that of its creation.
      if (existing.is_latest !== 1) await setLatest(trx, projectId, objectId, encoded.digest);
      return;
    }

    if (existing) {
      // Resurrection keeps the first-seen version_index (ClickHouse), so indexes stay stable.
      await trx
        .updateTable('objects')
        .set({ deleted_at: null, created_at: nowIso(), svc_user_id: ctx.user })
        .where('project_id', '=', projectId)
        .where('object_id', '=', objectId)
        .where('digest', '=', encoded.digest)
        .execute();
      await setLatest(trx, projectId, objectId, encoded.digest);
      return;
    }

    // Deleted versions keep their slots: count them too.
    const { max } = await trx
      .selectFrom('objects')
      .select((eb) => eb.fn.max('version_index').as('max'))
      .where('project_id', '=', projectId)
      .where('object_id', '=', objectId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('objects')
      .set({ is_latest: 0 })
      .where('project_id', '=', projectId)
      .where('object_id', '=', objectId)
      .where('is_latest', '=', 1)
      .execute();
    await trx
      .insertInto('objects')
      .values({
        project_id: projectId,
        object_id: objectId,
        digest: encoded.digest,
        version_index: max === null ? 0 : Number(max) + 1,
        kind,
        base_object_class: classes.base_object_class,
        leaf_object_class: classes.leaf_object_class,
        val: jsonTextAsWritten(db, encoded.text),
        size_bytes: encoded.sizeBytes,
        created_at: nowIso(),
        deleted_at: null,
        svc_user_id: ctx.user,
        is_latest: 1,
      })
      .execute();
  });

  return { digest: encoded.digest, object_id: objectId };
}
