// POST /obj/delete: soft-deletes versions of one object (all live ones when no digest is listed),
// with their tags and the aliases pointing at them (as Weave). Under the object's lock, like
// creates and the tag and alias writes, so is_latest moves consistently and no tag or alias is
// left on a deleted version.
import { invalidRequest, notFound } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { repointLatest, withObjectLock } from './object-versions.ts';
import { parseVersionRef, versionCondition, type VersionRef } from './version-ref.ts';

const MAX_DIGESTS = 100;

interface LiveVersion {
  digest: string;
  version_index: number;
  is_latest: number;
  base_object_class: string | null;
  leaf_object_class: string | null;
}

export async function objDelete(db: Db, req: T.ObjDeleteReq, _ctx: RequestContext): Promise<T.ObjDeleteRes> {
  const listed = req.digests ?? [];
  if (listed.length > MAX_DIGESTS) {
    throw invalidRequest(`Object delete request contains ${listed.length} digests; delete ${MAX_DIGESTS} or fewer at a time`);
  }
  const refs = listed.map(parseVersionRef);

  return withObjectLock(db, req.project_id, req.object_id, async (trx) => {
    const live: LiveVersion[] = await trx
      .selectFrom('objects')
      .select(['digest', 'version_index', 'is_latest', 'base_object_class', 'leaf_object_class'])
      .where('project_id', '=', req.project_id)
      .where('object_id', '=', req.object_id)
      .where('deleted_at', 'is', null)
      .$if(refs.length > 0, (q) => q.where((eb) => eb.or(refs.map((ref) => versionCondition(eb, ref)))))
      .orderBy('version_index')
      .execute();

    // An empty list, like none, means every live version (Weave tests `if req.digests`).
    let targets = live;
    if (refs.length > 0) {
      const missing = listed.filter((_, i) => !live.some((v) => matches(v, refs[i] as VersionRef)));
      if (missing.length > 0) {
        throw notFound(`Object ${req.object_id}: ${missing.join(', ')} not found when deleting (no version was deleted)`);
      }
      targets = live.filter((v) => refs.some((ref) => matches(v, ref)));
    }
    if (targets.length === 0) {
      throw notFound(`Object ${req.object_id} not found when deleting`);
    }

    const digests = targets.map((v) => v.digest);
    await trx
      .updateTable('objects')
      .set({ deleted_at: nowIso(), is_latest: 0 })
      .where('project_id', '=', req.project_id)
      .where('object_id', '=', req.object_id)
      .where('digest', 'in', digests)
      .execute();
    for (const table of ['object_tags', 'object_aliases'] as const) {
      await trx
        .deleteFrom(table)
        .where('project_id', '=', req.project_id)
        .where('object_id', '=', req.object_id)
        .where('digest', 'in', digests)
        .execute();
    }
    if (targets.some((v) => v.is_latest === 1)) await repointLatest(trx, req.project_id, req.object_id);

    return {
      num_deleted: targets.length,
      deleted_versions: targets.map((v) => ({
        digest: v.digest,
        base_object_class: v.base_object_class ?? '',
        ...(v.leaf_object_class !== null ? { leaf_object_class: v.leaf_object_class } : {}),
      })),
    };
  });
}

function matches(v: LiveVersion, ref: VersionRef): boolean {
  switch (ref.kind) {
    case 'latest':
      return v.is_latest === 1;
    case 'index':
      return v.version_index === ref.index;
    case 'none':
      return false;
    case 'digest':
      return v.digest === ref.digest;
  }
}
