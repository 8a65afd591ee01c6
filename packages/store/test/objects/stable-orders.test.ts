// Stable orders of the object lists: objs/query (created_at, version_index, then object_id: a
// unique pair with version_index), a version's tags and aliases and the project's tag and alias
// lists (sorted, each value once). Versions written in one millisecond come back in the
// tie-break's order, read after read and across pages, whatever order they were written in.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, createObj, storeOn } from './helpers.ts';

const P = 'stable/objects';
const SAME = '2025-06-03T09:00:00.000Z';

describeEachDialect('stable orders: objects', (getDb) => {
  const store = () => storeOn(getDb());
  const versions = async (req: Omit<T.ObjsQueryReq, 'project_id'> = {}) =>
    (await store().objsQuery({ project_id: P, metadata_only: true, ...req }, ALICE)).objs.map((o) => `${o.object_id}:v${o.version_index}`);
  let digestOfB1 = '';

  beforeAll(async () => {
    // Not in object_id order; b gets a second version. Then every version shares one created_at.
    for (const id of ['obj-d', 'obj-b', 'obj-a', 'obj-c']) await createObj(store(), P, id, { id });
    digestOfB1 = (await createObj(store(), P, 'obj-b', { id: 'obj-b', v: 1 })).digest;
    await getDb().kysely.updateTable('objects').set({ created_at: SAME }).where('project_id', '=', P).execute();
  });

  const cases: [string, Omit<T.ObjsQueryReq, 'project_id'>, string[]][] = [
    ['default (created_at, version_index, object_id)', {}, ['obj-a:v0', 'obj-b:v0', 'obj-c:v0', 'obj-d:v0', 'obj-b:v1']],
    [
      'created_at desc (newest version first, then object_id)',
      { sort_by: [{ field: 'created_at', direction: 'desc' }] },
      ['obj-b:v1', 'obj-a:v0', 'obj-b:v0', 'obj-c:v0', 'obj-d:v0'],
    ],
    [
      'object_id asc',
      { sort_by: [{ field: 'object_id', direction: 'asc' }] },
      ['obj-a:v0', 'obj-b:v0', 'obj-b:v1', 'obj-c:v0', 'obj-d:v0'],
    ],
    [
      'object_id desc',
      { sort_by: [{ field: 'object_id', direction: 'desc' }] },
      ['obj-d:v0', 'obj-c:v0', 'obj-b:v0', 'obj-b:v1', 'obj-a:v0'],
    ],
    ['latest_only', { filter: { latest_only: true } }, ['obj-a:v0', 'obj-c:v0', 'obj-d:v0', 'obj-b:v1']],
    [
      'latest_only, created_at desc',
      { filter: { latest_only: true }, sort_by: [{ field: 'created_at', direction: 'desc' }] },
      ['obj-b:v1', 'obj-a:v0', 'obj-c:v0', 'obj-d:v0'],
    ],
  ];
  for (const [label, req, expected] of cases) {
    it(`objs/query, ${label}: one order on every read and across pages`, async () => {
      for (let read = 0; read < 3; read++) expect(await versions(req)).toEqual(expected);
      const pages = [];
      for (let offset = 0; offset < expected.length; offset += 2) pages.push(...(await versions({ ...req, limit: 2, offset })));
      expect(pages).toEqual(expected);
      expect(await versions({ ...req, offset: 1 })).toEqual(expected.slice(1));
    });
  }

  it("a version's tags and aliases, and the project's lists, come back sorted whatever order they were added in", async () => {
    const s = store();
    await s.objAddTags({ project_id: P, object_id: 'obj-b', digest: digestOfB1, tags: ['silver', 'gold', 'bronze'] }, ALICE);
    await s.objAddTags({ project_id: P, object_id: 'obj-b', digest: digestOfB1, tags: ['amber'] }, ALICE);
    await s.objSetAliases({ project_id: P, object_id: 'obj-b', digest: digestOfB1, aliases: ['staging', 'production'] }, ALICE);
    const db = getDb();
    for (const table of ['object_tags', 'object_aliases'] as const) {
      await db.kysely.updateTable(table).set({ created_at: SAME }).where('project_id', '=', P).execute();
    }
    for (let read = 0; read < 3; read++) {
      expect(await s.tagsList({ project_id: P }, ALICE)).toEqual({ tags: ['amber', 'bronze', 'gold', 'silver'] });
      expect(await s.aliasesList({ project_id: P }, ALICE)).toEqual({ aliases: ['production', 'staging'] });
      const [b1] = (
        await s.objsQuery({ project_id: P, filter: { object_ids: ['obj-b'], latest_only: true }, include_tags_and_aliases: true }, ALICE)
      ).objs;
      expect([b1?.tags, b1?.aliases]).toEqual([
        ['amber', 'bronze', 'gold', 'silver'],
        ['latest', 'production', 'staging'],
      ]);
    }
  });
});
