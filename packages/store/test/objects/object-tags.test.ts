// Tags and aliases of object versions: add/remove tags, set (move)/remove aliases, the project's
// lists, obj/read by alias, objs/query's filters and include_tags_and_aliases, and obj/delete
// taking a version's tags and aliases with it. Both databases.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { jsonTextAsWritten } from '../../src/db/index.ts';
import { objsQueryBuilder } from '../../src/objects/objs-query.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, createObj, expectWeftError, explain, newProject, storeOn, tick, type TestStore } from './helpers.ts';

describeEachDialect('object tags and aliases', (getDb) => {
  let store: TestStore;
  beforeAll(() => {
    store = storeOn(getDb());
  });

  /** An object with `n` versions; their digests, oldest first. */
  async function versions(p: string, objectId: string, n: number): Promise<string[]> {
    const digests: string[] = [];
    for (let i = 0; i < n; i++) {
      digests.push((await createObj(store, p, objectId, { n: i })).digest);
      await tick();
    }
    return digests;
  }
  const addTags = (p: string, object_id: string, digest: string, tags: string[]) =>
    store.objAddTags({ project_id: p, object_id, digest, tags }, ALICE);
  const setAliases = (p: string, object_id: string, digest: string, aliases: string[]) =>
    store.objSetAliases({ project_id: p, object_id, digest, aliases }, ALICE);
  const labels = async (p: string, filter: T.ObjsQueryReq['filter'] = null) =>
    (await store.objsQuery({ project_id: p, filter, include_tags_and_aliases: true }, ALICE)).objs.map((o) => ({
      v: `${o.object_id}:v${o.version_index}`,
      tags: o.tags,
      aliases: o.aliases,
    }));
  const ids = async (p: string, filter: T.ObjsQueryReq['filter']) =>
    (await store.objsQuery({ project_id: p, filter }, ALICE)).objs.map((o) => `${o.object_id}:v${o.version_index}`);

  it('adds tags once each and answers them sorted; removes them idempotently', async () => {
    const p = newProject('tags');
    const [d0, d1] = await versions(p, 'prompt', 2);
    expect(await addTags(p, 'prompt', d0!, ['staging', 'reviewed', 'staging'])).toEqual({});
    await addTags(p, 'prompt', d0!, ['reviewed', 'a b-c_d']);
    expect(await labels(p)).toEqual([
      { v: 'prompt:v0', tags: ['a b-c_d', 'reviewed', 'staging'], aliases: [] },
      { v: 'prompt:v1', tags: [], aliases: ['latest'] },
    ]);
    expect(await store.objRemoveTags({ project_id: p, object_id: 'prompt', digest: d0!, tags: ['staging', 'never-added'] }, ALICE)).toEqual(
      {},
    );
    // A version that does not exist: nothing to remove, no error (Weave).
    await store.objRemoveTags({ project_id: p, object_id: 'nope', digest: d1!, tags: ['reviewed'] }, ALICE);
    expect((await labels(p))[0]!.tags).toEqual(['a b-c_d', 'reviewed']);
  });

  it('refuses tags and aliases on a version that is not live with 404', async () => {
    const p = newProject('tags-404');
    const [d0, d1] = await versions(p, 'prompt', 2);
    await expectWeftError(addTags(p, 'prompt', 'g8xB784Zx14VgRVYOeuKukfyZG0m36nntfFPCR5QrIs', ['x']), 404, 'NotFoundError');
    await expectWeftError(addTags(p, 'other', d0!, ['x']), 404, 'NotFoundError');
    // `latest` and `v0` name versions elsewhere, but tags go on a content digest (Weave).
    await expectWeftError(addTags(p, 'prompt', 'latest', ['x']), 404, 'NotFoundError');
    await store.objDelete({ project_id: p, object_id: 'prompt', digests: [d1!] }, ALICE);
    await expectWeftError(addTags(p, 'prompt', d1!, ['x']), 404, 'NotFoundError');
    await expectWeftError(setAliases(p, 'prompt', d1!, ['prod']), 404, 'NotFoundError');
    expect(await store.tagsList({ project_id: p }, ALICE)).toEqual({ tags: [] });
    expect(await store.aliasesList({ project_id: p }, ALICE)).toEqual({ aliases: [] });
  });

  it('points an alias at one version at a time: setting it again moves it', async () => {
    const p = newProject('aliases');
    const [d0, d1, d2] = await versions(p, 'model', 3);
    await setAliases(p, 'model', d0!, ['production', 'staging', 'production']);
    await setAliases(p, 'model', d1!, ['staging']);
    expect(await labels(p)).toEqual([
      { v: 'model:v0', tags: [], aliases: ['production'] },
      { v: 'model:v1', tags: [], aliases: ['staging'] },
      { v: 'model:v2', tags: [], aliases: ['latest'] },
    ]);
    await setAliases(p, 'model', d2!, ['production']);
    expect((await labels(p)).map((l) => l.aliases)).toEqual([[], ['staging'], ['latest', 'production']]);
    // obj/read takes an alias for `digest`, besides digests, `latest` and `v<N>`.
    const read = (digest: string) => store.objRead({ project_id: p, object_id: 'model', digest }, ALICE);
    expect((await read('production')).obj.digest).toBe(d2);
    expect((await read('staging')).obj.digest).toBe(d1);
    expect((await read('v0')).obj.digest).toBe(d0);
    await expectWeftError(read('canary'), 404, 'NotFoundError');
    // An alias is the object's own: another object has none of these.
    await versions(p, 'other', 1);
    await expectWeftError(store.objRead({ project_id: p, object_id: 'other', digest: 'production' }, ALICE), 404, 'NotFoundError');
    expect(await store.objRemoveAliases({ project_id: p, object_id: 'model', aliases: ['staging', 'never-set'] }, ALICE)).toEqual({});
    await expectWeftError(read('staging'), 404, 'NotFoundError');
    expect(await store.aliasesList({ project_id: p }, ALICE)).toEqual({ aliases: ['production'] });
  });

  it('never takes a content digest for an alias', async () => {
    const p = newProject('alias-shape');
    const [d0, d1] = await versions(p, 'model', 2);
    // An alias spelled like another version's digest: obj/read still reads that digest.
    await setAliases(p, 'model', d0!, [d1!]);
    expect((await store.objRead({ project_id: p, object_id: 'model', digest: d1! }, ALICE)).obj.digest).toBe(d1);
    // A name of any other shape is looked up as an alias first.
    await setAliases(p, 'model', d0!, ['release 1.0']);
    expect((await store.objRead({ project_id: p, object_id: 'model', digest: 'release 1.0' }, ALICE)).obj.digest).toBe(d0);
  });

  it('obj/read answers tags and aliases when asked, and only then', async () => {
    const p = newProject('read-labels');
    const [d0] = await versions(p, 'prompt', 1);
    await addTags(p, 'prompt', d0!, ['reviewed']);
    await setAliases(p, 'prompt', d0!, ['production']);
    const { obj } = await store.objRead(
      { project_id: p, object_id: 'prompt', digest: 'production', include_tags_and_aliases: true },
      ALICE,
    );
    expect(obj).toMatchObject({ digest: d0, tags: ['reviewed'], aliases: ['latest', 'production'] });
    const plain = (await store.objRead({ project_id: p, object_id: 'prompt', digest: 'latest', include_tags_and_aliases: null }, ALICE))
      .obj;
    expect('tags' in plain || 'aliases' in plain).toBe(false);
  });

  it('filters objs/query by any listed tag and any listed alias, `latest` being the latest version', async () => {
    const p = newProject('filters');
    const [a0, a1] = await versions(p, 'a', 3);
    const [b0] = await versions(p, 'b', 1);
    await addTags(p, 'a', a0!, ['gold']);
    await addTags(p, 'a', a1!, ['silver']);
    await addTags(p, 'b', b0!, ['gold', 'silver']);
    await setAliases(p, 'a', a1!, ['production']);
    await setAliases(p, 'b', b0!, ['staging']);
    expect(await ids(p, { tags: ['gold'] })).toEqual(['a:v0', 'b:v0']);
    expect(await ids(p, { tags: ['gold', 'silver'] })).toEqual(['a:v0', 'a:v1', 'b:v0']);
    expect(await ids(p, { tags: ['bronze'] })).toEqual([]);
    expect(await ids(p, { aliases: ['production'] })).toEqual(['a:v1']);
    expect(await ids(p, { aliases: ['production', 'staging'] })).toEqual(['a:v1', 'b:v0']);
    expect(await ids(p, { aliases: ['latest'] })).toEqual(['a:v2', 'b:v0']);
    expect(await ids(p, { aliases: ['production', 'latest'] })).toEqual(['a:v1', 'a:v2', 'b:v0']);
    // Every condition must hold.
    expect(await ids(p, { tags: ['gold'], aliases: ['latest'] })).toEqual(['b:v0']);
    expect(await ids(p, { tags: ['silver'], object_ids: ['a'], latest_only: false })).toEqual(['a:v1']);
    expect(await ids(p, { tags: [], aliases: [] })).toHaveLength(4);
    // Another project's tags are not this one's.
    const q = newProject('filters-other');
    expect(await ids(q, { tags: ['gold'] })).toEqual([]);
    expect(await store.tagsList({ project_id: p }, ALICE)).toEqual({ tags: ['gold', 'silver'] });
    expect(await store.tagsList({ project_id: q }, ALICE)).toEqual({ tags: [] });
  });

  it('obj/delete removes the tags of the versions it deletes and the aliases pointing at them', async () => {
    const p = newProject('delete');
    const [d0, d1, d2] = await versions(p, 'model', 3);
    for (const d of [d0!, d1!, d2!]) await addTags(p, 'model', d, ['t-' + d.slice(0, 4).replace(/[^A-Za-z0-9]/g, 'x'), 'shared']);
    await setAliases(p, 'model', d1!, ['production']);
    await setAliases(p, 'model', d0!, ['stable']);
    await store.objDelete({ project_id: p, object_id: 'model', digests: [d1!, 'latest'] }, ALICE);
    expect(await labels(p)).toEqual([{ v: 'model:v0', tags: expect.arrayContaining(['shared']), aliases: ['latest', 'stable'] }]);
    const rows = async (table: 'object_tags' | 'object_aliases') =>
      (await getDb().kysely.selectFrom(table).select('digest').where('project_id', '=', p).execute()).map((r) => r.digest);
    expect(new Set(await rows('object_tags'))).toEqual(new Set([d0]));
    expect(await rows('object_aliases')).toEqual([d0]);
    await expectWeftError(store.objRead({ project_id: p, object_id: 'model', digest: 'production' }, ALICE), 404, 'NotFoundError');
    expect(await store.aliasesList({ project_id: p }, ALICE)).toEqual({ aliases: ['stable'] });
    // Re-creating a deleted value brings the version back without its old tags or aliases.
    await createObj(store, p, 'model', { n: 1 });
    expect((await labels(p)).find((l) => l.v === 'model:v1')).toEqual({ v: 'model:v1', tags: [], aliases: ['latest'] });
    // Deleting every version leaves nothing behind.
    await store.objDelete({ project_id: p, object_id: 'model' }, ALICE);
    expect(await rows('object_tags')).toEqual([]);
    expect(await rows('object_aliases')).toEqual([]);
  });

  it('labels every version of an answer longer than one look-up', async () => {
    const p = newProject('many');
    const db = getDb();
    const n = 520;
    const created_at = '2026-01-01T00:00:00.000Z';
    // Rows written directly: 520 versions through obj/create would only slow the test down.
    await db.kysely
      .insertInto('objects')
      .values(
        Array.from({ length: n }, (_, i) => ({
          project_id: p,
          object_id: `o${i}`,
          digest: `d${i}`,
          version_index: 0,
          kind: 'object',
          base_object_class: null,
          leaf_object_class: null,
          val: jsonTextAsWritten(db, '{}'),
          size_bytes: 2,
          created_at,
          deleted_at: null,
          svc_user_id: 'alice',
          is_latest: 1 as const,
        })),
      )
      .execute();
    await db.kysely
      .insertInto('object_tags')
      .values(Array.from({ length: n }, (_, i) => ({ project_id: p, object_id: `o${i}`, digest: `d${i}`, tag: `t${i}`, created_at })))
      .execute();
    const { objs } = await store.objsQuery({ project_id: p, metadata_only: true, include_tags_and_aliases: true }, ALICE);
    expect(objs).toHaveLength(n);
    for (const o of objs) expect(o.tags).toEqual([`t${o.object_id.slice(1)}`]);
  });

  it('checks the tags and aliases filters through primary keys, starting with project_id', async () => {
    const db = getDb();
    const p = newProject('plan');
    const sqlText = objsQueryBuilder(db, { project_id: p, filter: { tags: ['x'], aliases: ['prod'] }, limit: 10 })!.compile();
    const plan = await explain(db, sqlText);
    expect(plan).toContain('objects_created_idx');
    expect(plan).toMatch(db.dialect === 'postgres' ? /object_tags_pkey/ : /sqlite_autoindex_object_tags_1/);
    expect(plan).toMatch(db.dialect === 'postgres' ? /object_aliases_pkey/ : /sqlite_autoindex_object_aliases_1/);
  });
});
