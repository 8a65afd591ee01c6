// objRead and objDelete: naming versions by digest, `latest` and `v<N>`; soft deletion and where
// the latest version goes afterwards.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, createObj, expectWeftError, newProject, storeOn, tick, type TestStore } from './helpers.ts';

/** Three versions a, b, c of `o`, created in that order. */
async function threeVersions(store: TestStore, p: string): Promise<[string, string, string]> {
  const digests: string[] = [];
  for (const v of ['a', 'b', 'c']) {
    digests.push((await createObj(store, p, 'o', { v })).digest);
    await tick();
  }
  return digests as [string, string, string];
}

const read = (store: TestStore, p: string, digest: string, metadataOnly?: boolean): Promise<T.ObjReadRes> =>
  store.objRead({ project_id: p, object_id: 'o', digest, ...(metadataOnly === undefined ? {} : { metadata_only: metadataOnly }) }, ALICE);

const liveVersions = async (store: TestStore, p: string): Promise<[number, number][]> =>
  (await store.objsQuery({ project_id: p }, ALICE)).objs.map((o) => [o.version_index, o.is_latest]);

describeEachDialect('objRead', (getDb) => {
  it('reads by digest, latest and v<N>; metadata_only answers val {}', async () => {
    const store = storeOn(getDb());
    const p = newProject('read');
    const [a, , c] = await threeVersions(store, p);
    expect((await read(store, p, a)).obj).toMatchObject({ digest: a, version_index: 0, is_latest: 0, val: { v: 'a' } });
    expect((await read(store, p, 'latest')).obj).toMatchObject({ digest: c, version_index: 2, is_latest: 1, val: { v: 'c' } });
    expect((await read(store, p, 'v1')).obj.val).toEqual({ v: 'b' });
    expect((await read(store, p, 'v01')).obj.val).toEqual({ v: 'b' });
    const meta = (await read(store, p, 'latest', true)).obj;
    expect(meta).toMatchObject({ digest: c, val: {} });
    // Reads never report storage size, tags or aliases (those are query options).
    expect(Object.keys(meta).sort()).toEqual(
      [
        'base_object_class',
        'created_at',
        'digest',
        'is_latest',
        'kind',
        'object_id',
        'project_id',
        'svc_user_id',
        'val',
        'version_index',
      ].sort(),
    );
  });

  it('answers NotFoundError for unknown versions and ObjectDeletedError (with deleted_at) for deleted ones', async () => {
    const store = storeOn(getDb());
    const p = newProject('read-missing');
    const [a] = await threeVersions(store, p);
    for (const digest of ['nope', 'v3', 'v99999999999', 'V0']) {
      const err = await expectWeftError(read(store, p, digest), 404, 'NotFoundError');
      expect(err.message).toBe(`Obj o:${digest} not found`);
    }
    await expectWeftError(store.objRead({ project_id: p, object_id: 'other', digest: 'latest' }, ALICE), 404, 'NotFoundError');
    await expectWeftError(store.objRead({ project_id: newProject('x'), object_id: 'o', digest: a }, ALICE), 404, 'NotFoundError');

    await store.objDelete({ project_id: p, object_id: 'o', digests: [a] }, ALICE);
    for (const digest of [a, 'v0']) {
      const err = await expectWeftError(read(store, p, digest), 404, 'ObjectDeletedError');
      expect(err.extra.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(err.message).toBe(`o:v0 was deleted at ${String(err.extra.deleted_at)}`);
    }
    // Once every version is deleted, `latest` names the last one created, reported deleted.
    await store.objDelete({ project_id: p, object_id: 'o' }, ALICE);
    const err = await expectWeftError(read(store, p, 'latest'), 404, 'ObjectDeletedError');
    expect(err.message).toMatch(/^o:v2 was deleted at /);
  });
});

describeEachDialect('objDelete', (getDb) => {
  it('deletes the listed versions (digest, latest, vN) and moves latest to the newest survivor', async () => {
    const store = storeOn(getDb());
    const p = newProject('delete');
    const [a, b, c] = await threeVersions(store, p);

    const res = await store.objDelete({ project_id: p, object_id: 'o', digests: ['latest'] }, ALICE);
    expect(res).toEqual({ num_deleted: 1, deleted_versions: [{ digest: c, base_object_class: '' }] });
    expect(await liveVersions(store, p)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect((await read(store, p, 'latest')).obj.digest).toBe(b);

    // Several names of one version count once.
    const res2 = await store.objDelete({ project_id: p, object_id: 'o', digests: ['v1', b, 'latest'] }, ALICE);
    expect(res2.num_deleted).toBe(1);
    expect((await read(store, p, 'latest')).obj.digest).toBe(a);

    // A new version after deletions takes the next free index: deleted slots are kept.
    const d = await createObj(store, p, 'o', { v: 'd' });
    expect((await read(store, p, d.digest)).obj).toMatchObject({ version_index: 3, is_latest: 1 });
  });

  it('without digests (or with an empty list) deletes every live version', async () => {
    const store = storeOn(getDb());
    const p = newProject('delete-all');
    await threeVersions(store, p);
    await store.objDelete({ project_id: p, object_id: 'o', digests: ['v0'] }, ALICE);
    const res = await store.objDelete({ project_id: p, object_id: 'o', digests: [] }, ALICE);
    expect(res.num_deleted).toBe(2);
    expect(await liveVersions(store, p)).toEqual([]);
    await expectWeftError(store.objDelete({ project_id: p, object_id: 'o' }, ALICE), 404, 'NotFoundError');
  });

  it('is all or nothing: one missing or already deleted digest → NotFoundError, nothing deleted', async () => {
    const store = storeOn(getDb());
    const p = newProject('delete-missing');
    const [a, b] = await threeVersions(store, p);
    await store.objDelete({ project_id: p, object_id: 'o', digests: [a] }, ALICE);
    for (const digests of [[b, 'nope'], [b, a], ['v7'], ['v0']]) {
      const err = await expectWeftError(store.objDelete({ project_id: p, object_id: 'o', digests }, ALICE), 404, 'NotFoundError');
      expect(err.message).toContain(digests[digests.length - 1] as string);
    }
    expect(await liveVersions(store, p)).toEqual([
      [1, 0],
      [2, 1],
    ]);
    await expectWeftError(store.objDelete({ project_id: p, object_id: 'nothing-here' }, ALICE), 404, 'NotFoundError');
    await expectWeftError(
      store.objDelete({ project_id: p, object_id: 'o', digests: Array.from({ length: 101 }, (_, i) => `v${i}`) }, ALICE),
      400,
      'InvalidRequest',
    );
  });

  it('reports the classes of what it deleted', async () => {
    const store = storeOn(getDb());
    const p = newProject('delete-classes');
    const ds = { _type: 'Dataset', _class_name: 'Dataset', _bases: ['Object', 'BaseModel'], rows: 'weave:///x/y/table/abc' };
    const { digest } = await createObj(store, p, 'o', ds);
    const res = await store.objDelete({ project_id: p, object_id: 'o' }, ALICE);
    expect(res).toEqual({ num_deleted: 1, deleted_versions: [{ digest, base_object_class: 'Dataset', leaf_object_class: 'Dataset' }] });
  });

  it('keeps the latest where it is when an older version is deleted; re-created latest wins over older ones', async () => {
    const store = storeOn(getDb());
    const p = newProject('delete-older');
    const [a, , c] = await threeVersions(store, p);
    await store.objDelete({ project_id: p, object_id: 'o', digests: [a] }, ALICE);
    expect((await read(store, p, 'latest')).obj.digest).toBe(c);
    // Re-publishing b makes it latest; deleting it hands latest back to c (created after b).
    await createObj(store, p, 'o', { v: 'b' });
    expect((await read(store, p, 'latest')).obj.version_index).toBe(1);
    await store.objDelete({ project_id: p, object_id: 'o', digests: ['latest'] }, ALICE);
    expect((await read(store, p, 'latest')).obj.digest).toBe(c);
  });
});
