// PUT /objs/{object_id}/aliases: points aliases at one live version (Weave's obj_set_aliases).
// An alias names one version of its object: setting it again moves it. Under the object's lock,
// as obj/delete, so an alias never points at a deleted version.
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { requireLiveVersion } from './live-version.ts';
import { withObjectLock } from './object-versions.ts';

type ObjSetAliasesInput = T.ObjSetAliasesReq & { object_id: string };

export async function objSetAliases(db: Db, req: ObjSetAliasesInput, _ctx: RequestContext): Promise<T.Empty> {
  // Once each: PostgreSQL refuses an upsert that would touch the same row twice.
  const aliases = [...new Set(req.aliases)];
  await withObjectLock(db, req.project_id, req.object_id, async (trx) => {
    await requireLiveVersion(trx, req.project_id, req.object_id, req.digest);
    if (aliases.length === 0) return;
    const created_at = nowIso();
    await trx
      .insertInto('object_aliases')
      .values(aliases.map((alias) => ({ project_id: req.project_id, object_id: req.object_id, alias, digest: req.digest, created_at })))
      .onConflict((oc) =>
        oc.columns(['project_id', 'object_id', 'alias']).doUpdateSet((eb) => ({
          digest: eb.ref('excluded.digest'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  });
  return {};
}
