// Whether a database holds exactly the seed: every table by its digest (recomputed from the
// generator, and recomputed again from the stored row list), every row of it present, every
// object's latest version by digest, the call, and scenario 11's calls (calls-verify.ts). A reused
// SQLite file and a reused PostgreSQL database must pass this, or they are seeded again (SQLite)
// or refused (PostgreSQL).
import { digestOfValue, tableDigest } from '@weft/core';
import type { Db } from '@weft/store';
import { progress } from '../progress.ts';
import { verifyCalls } from './calls-verify.ts';
import { CALL_ID, expectedTableDigest, objectId, objectValue, PROJECTS, TABLE_SALT, tableRows, type SeedSpec } from './spec.ts';

export interface SeedDigests {
  big: string;
  small: string;
}

/** The digests the seeded tables must have, from the generator. */
export function seedDigests(spec: SeedSpec): SeedDigests {
  const one = (which: 'big' | 'small', count: number) => {
    const bar = progress(`digesting the ${count.toLocaleString('en-US')}-row table`, count * 2);
    const rows = tableRows(count, TABLE_SALT[which], (done) => bar.tick(done));
    const digest = expectedTableDigest(rows, (done) => bar.tick(count + done));
    bar.done();
    return digest;
  };
  return { big: one('big', spec.bigRows), small: one('small', spec.smallRows) };
}

/** Empty when the seed is all there; otherwise what is wrong. Read-only. */
export async function verifySeed(db: Db, spec: SeedSpec, digests: SeedDigests): Promise<string[]> {
  const problems: string[] = [];
  for (const [which, count] of [
    ['big', spec.bigRows],
    ['small', spec.smallRows],
  ] as const) {
    const digest = digests[which];
    const table = await db.kysely
      .selectFrom('tables')
      .select('row_count')
      .where('project_id', '=', PROJECTS.tables)
      .where('digest', '=', digest)
      .executeTakeFirst();
    if (table?.row_count !== count) {
      problems.push(`no ${count}-row table ${digest}`);
      continue;
    }
    const list = await db.kysely
      .selectFrom('table_rows as tr')
      .innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 'tr.project_id').onRef('r.digest', '=', 'tr.row_digest'))
      .select('tr.row_digest')
      .where('tr.project_id', '=', PROJECTS.tables)
      .where('tr.table_digest', '=', digest)
      .orderBy('tr.row_index')
      .execute();
    if (list.length !== count || tableDigest(list.map((r) => r.row_digest)) !== digest)
      problems.push(`table ${digest}: stored rows do not hash to it`);
  }
  for (const [projectId, size] of [
    [PROJECTS.objsLarge, spec.largeProject],
    [PROJECTS.objsSmall, spec.smallProject],
  ] as const) {
    const versions = await db.kysely
      .selectFrom('objects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    if (Number(versions.n) !== size.objects * size.versions)
      problems.push(`${projectId}: ${versions.n} versions, expected ${size.objects * size.versions}`);
    const latest = await db.kysely
      .selectFrom('objects')
      .select(['object_id', 'digest'])
      .where('project_id', '=', projectId)
      .where('is_latest', '=', 1)
      .where('deleted_at', 'is', null)
      .execute();
    const byId = new Map(latest.map((r) => [r.object_id, r.digest]));
    let wrong = byId.size === size.objects ? 0 : 1;
    for (let o = 0; o < size.objects && wrong === 0; o++) {
      if (byId.get(objectId(o)) !== digestOfValue(objectValue(o, size.versions - 1))) wrong++;
    }
    if (wrong > 0) problems.push(`${projectId}: latest versions differ from the generator`);
  }
  const call = await db.kysely
    .selectFrom('calls')
    .select('id')
    .where('project_id', '=', PROJECTS.calls)
    .where('id', '=', CALL_ID)
    .executeTakeFirst();
  if (!call) problems.push('the call is missing');
  problems.push(...(await verifyCalls(db, spec)));
  return problems;
}

/** Whether nothing of the seed's projects is there yet (a fresh database). */
export async function isUnseeded(db: Db): Promise<boolean> {
  const some = await db.kysely.selectFrom('tables').select('digest').where('project_id', '=', PROJECTS.tables).limit(1).executeTakeFirst();
  const obj = await db.kysely
    .selectFrom('objects')
    .select('digest')
    .where('project_id', 'in', [PROJECTS.objsLarge, PROJECTS.objsSmall])
    .limit(1)
    .executeTakeFirst();
  return !some && !obj;
}
