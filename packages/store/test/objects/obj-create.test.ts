// objCreate: Weave's digests, classes, dedupe, re-publishing and resurrection, on both databases.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { WEAVE_OBJECT_VECTORS } from '@weft/core/testing';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, createObj, expectWeftError, newProject, storeOn, tick, viaHttp } from './helpers.ts';

const createBody = (projectId: string, objectId: string, valText: string, extra = ''): string =>
  `{"obj":{"project_id":"${projectId}","object_id":"${objectId}","val":${valText}${extra}}}`;

describeEachDialect('objCreate', (getDb) => {
  it('digests the value as sent: 1.0 and 1 are different versions (weave-compat §5 vectors)', async () => {
    const store = storeOn(getDb());
    const p = newProject('digest');
    const vectors = WEAVE_OBJECT_VECTORS.map((v) => [v.text, v.digest] as const);
    for (const [i, [valText, digest]] of vectors.entries()) {
      const res = await store.objCreate(...viaHttp<T.ObjCreateReq>(createBody(p, `o${i}`, valText)));
      expect(res, valText).toEqual({ digest, object_id: `o${i}` });
    }
    // Without a lossless source the plain value is digested: 1.0 is then the integer 1.
    expect((await createObj(store, p, 'plain', { a: 1.0 })).digest).toBe('XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA');

    // 1.0 and 1 under one name are two versions.
    await store.objCreate(...viaHttp<T.ObjCreateReq>(createBody(p, 'num', '{"a":1.0}')));
    await store.objCreate(...viaHttp<T.ObjCreateReq>(createBody(p, 'num', '{"a":1}')));
    const { objs } = await store.objsQuery({ project_id: p, filter: { object_ids: ['num'] } }, ALICE);
    expect(objs.map((o) => [o.version_index, o.digest])).toEqual([
      [0, 'dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q'],
      [1, 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA'],
    ]);
  });

  it('records kind, classes, size, creator and the value', async () => {
    const store = storeOn(getDb());
    const p = newProject('meta');
    const model = { _type: 'MyModel', _class_name: 'MyModel', _bases: ['Model', 'Object', 'BaseModel'], name: 'm', temperature: 0.5 };
    const op = { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': 'abc' }, load_op: 'NO_LOAD_OP' };
    await store.objCreate(
      { obj: { project_id: p, object_id: 'model', val: model, svc_user_id: 'mallory' } },
      { user: 'bob', source: undefined },
    );
    await createObj(store, p, 'op', op);
    await createObj(store, p, 'plain', 'just a string');

    const read = async (id: string): Promise<T.ObjSchema> =>
      (await store.objRead({ project_id: p, object_id: id, digest: 'latest' }, ALICE)).obj;
    const m = await read('model');
    expect(m).toMatchObject({ kind: 'object', base_object_class: 'Model', leaf_object_class: 'MyModel', svc_user_id: 'bob', val: model });
    expect(m.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await read('op')).kind).toBe('op');
    // No class: '' (Weave says null) and no leaf_object_class key at all.
    const plain = await read('plain');
    expect(plain.base_object_class).toBe('');
    expect('leaf_object_class' in plain).toBe(false);
    expect('deleted_at' in plain).toBe(false);

    // size_bytes is the length of Python's json.dumps(val, sort_keys=True).
    const [{ size_bytes }] = (
      await store.objsQuery({ project_id: p, filter: { object_ids: ['plain'] }, include_storage_size: true }, ALICE)
    ).objs as [T.ObjSchema];
    expect(size_bytes).toBe('"just a string"'.length);
  });

  it('rejects a wrong expected_digest (409), builtin classes and invalid object ids (400), creating nothing', async () => {
    const store = storeOn(getDb());
    const p = newProject('reject');
    const err = await expectWeftError(
      store.objCreate(...viaHttp<T.ObjCreateReq>(createBody(p, 'x', '{"a":1}', ',"expected_digest":"nope"'))),
      409,
      'DigestMismatchError',
    );
    expect(err.extra).toEqual({ expected_digest: 'nope', computed_digest: 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA' });
    const ok = await store.objCreate(
      ...viaHttp<T.ObjCreateReq>(createBody(p, 'x', '{"a":1}', ',"expected_digest":"XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA"')),
    );
    expect(ok.digest).toBe('XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA');

    await expectWeftError(
      store.objCreate({ obj: { project_id: p, object_id: 'y', val: {}, builtin_object_class: 'Dataset' } }, ALICE),
      422,
      'ValidationError',
    );
    await expectWeftError(
      store.objCreate({ obj: { project_id: p, object_id: 'y', val: {}, set_base_object_class: 'Model' } }, ALICE),
      422,
      'ValidationError',
    );
    for (const bad of ['', 'a/b', 'a:b', 'sp ace', 'x'.repeat(129), 'e\u0301']) {
      await expectWeftError(createObj(store, p, bad, {}), 400, 'InvalidRequest');
    }
    expect((await store.objsQuery({ project_id: p }, ALICE)).objs.map((o) => o.object_id)).toEqual(['x']);
  });

  it('dedupes a live value: same digest, no new version, and it becomes the latest again', async () => {
    const store = storeOn(getDb());
    const p = newProject('dedupe');
    const a = await createObj(store, p, 'o', { v: 'a' });
    await tick();
    const b = await createObj(store, p, 'o', { v: 'b' });
    await tick();
    const again = await createObj(store, p, 'o', { v: 'a' });
    expect(again.digest).toBe(a.digest);

    const { objs } = await store.objsQuery({ project_id: p }, ALICE);
    expect(objs.map((o) => [o.digest, o.version_index, o.is_latest])).toEqual([
      [a.digest, 0, 1],
      [b.digest, 1, 0],
    ]);
    expect((await store.objRead({ project_id: p, object_id: 'o', digest: 'latest' }, ALICE)).obj.val).toEqual({ v: 'a' });
  });

  it('resurrects a deleted version: same index, new created_at, latest again', async () => {
    const store = storeOn(getDb());
    const p = newProject('resurrect');
    const a = await createObj(store, p, 'o', { v: 'a' });
    await tick();
    const b = await createObj(store, p, 'o', { v: 'b' });
    const before = (await store.objRead({ project_id: p, object_id: 'o', digest: a.digest }, ALICE)).obj;
    await store.objDelete({ project_id: p, object_id: 'o', digests: [a.digest] }, ALICE);
    await tick();
    const c = await createObj(store, p, 'o', { v: 'c' });
    await tick();
    expect((await createObj(store, p, 'o', { v: 'a' }, { user: 'carol', source: undefined })).digest).toBe(a.digest);

    const { objs } = await store.objsQuery({ project_id: p, sort_by: [{ field: 'object_id', direction: 'asc' }] }, ALICE);
    expect(objs.map((o) => [o.digest, o.version_index, o.is_latest])).toEqual([
      [a.digest, 0, 1],
      [b.digest, 1, 0],
      [c.digest, 2, 0],
    ]);
    const revived = objs[0] as T.ObjSchema;
    expect(revived.created_at > before.created_at).toBe(true);
    expect(revived.svc_user_id).toBe('carol');
    expect('deleted_at' in revived).toBe(false);
  });

  it('stores values both databases can hold alike; refuses U+0000 and lone surrogates', async () => {
    const store = storeOn(getDb());
    const p = newProject('values');
    // NaN / Infinity are valid for Python's json: digested as sent, stored as null.
    const res = await store.objCreate(...viaHttp<T.ObjCreateReq>(createBody(p, 'nan', '{"x":NaN,"y":[Infinity,-Infinity],"z":1.50}')));
    expect(res.digest).toHaveLength(43);
    const back = (await store.objRead({ project_id: p, object_id: 'nan', digest: res.digest }, ALICE)).obj.val;
    expect(back).toEqual({ x: null, y: [null, null], z: 1.5 });
    expect(Object.keys((await store.objRead({ project_id: p, object_id: 'nan', digest: 'v0' }, ALICE)).obj.val as object)).toEqual([
      'x',
      'y',
      'z',
    ]);

    // Keys come back in the order sent from both databases, nested objects too.
    await createObj(store, p, 'keys', { bb: 1, a: 2, c: { zz: 1, y: 2 }, é: 3 });
    const keys = (await store.objRead({ project_id: p, object_id: 'keys', digest: 'latest' }, ALICE)).obj.val as Record<string, unknown>;
    expect(Object.keys(keys)).toEqual(['bb', 'a', 'c', 'é']);
    expect(Object.keys(keys.c as object)).toEqual(['zz', 'y']);

    // What is stored is the text as sent, minified: numbers as spelt, keys in order, but for keys
    // that are array indices, which come first as in any JavaScript object (README).
    const sent = await store.objCreate(
      ...viaHttp<T.ObjCreateReq>(createBody(p, 'text', '{ "zb": 1.50, "a": {"y": 1e2, "b": [2.0]}, "0": true }')),
    );
    const { rows } = await sql<{ text: string }>`select cast(val as text) as text from objects
      where project_id = ${p} and object_id = 'text' and digest = ${sent.digest}`.execute(getDb().kysely);
    expect(rows[0]!.text).toBe('{"0":true,"zb":1.50,"a":{"y":1e2,"b":[2.0]}}');

    await expectWeftError(createObj(store, p, 'nul', { s: 'a\u0000b' }), 400, 'InvalidRequest');
    await expectWeftError(createObj(store, p, 'nul', { 'k\u0000': 1 }), 400, 'InvalidRequest');
    await expectWeftError(createObj(store, p, 'sur', ['\ud800']), 400, 'InvalidRequest');
    // Escaped-looking text is fine: a backslash followed by "u0000".
    await createObj(store, p, 'escaped', { s: '\\u0000 and \\ud800' });
    expect((await store.objRead({ project_id: p, object_id: 'escaped', digest: 'latest' }, ALICE)).obj.val).toEqual({
      s: '\\u0000 and \\ud800',
    });
  });
});
