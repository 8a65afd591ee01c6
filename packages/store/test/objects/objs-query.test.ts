// objsQuery: every filter of ObjectVersionFilter, the sort options, paging and the include flags,
// and that pages are served from the indexes.
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { objsQueryBuilder } from '../../src/objects/objs-query.ts';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, createObj, expectWeftError, explain, newProject, storeOn, tick, type TestStore } from './helpers.ts';

const cls = (leaf: string, ...bases: string[]) => ({ _type: leaf, _class_name: leaf, _bases: [...bases, 'Object', 'BaseModel'] });
const OP = { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: {}, load_op: 'NO_LOAD_OP' };

describeEachDialect('objsQuery', (getDb) => {
  let store: TestStore;
  const p = newProject('query');
  /** Creation order: ds v0, model v0, ds v1, op v0, plain v0, plain v1 (deleted), evalx v0. */
  beforeAll(async () => {
    store = storeOn(getDb());
    const creates: [string, unknown][] = [
      ['ds', { ...cls('Dataset'), rows: 1 }],
      ['model', cls('MyModel', 'Model')],
      ['ds', { ...cls('Dataset'), rows: 2 }],
      ['op', OP],
      ['plain', { x: 1 }],
      ['plain', { x: 2 }],
      ['evalx', cls('Evaluation')],
    ];
    for (const [id, val] of creates) {
      await createObj(store, p, id, val);
      await tick();
    }
    await store.objDelete({ project_id: p, object_id: 'plain', digests: ['v1'] }, ALICE);
  });

  const ids = async (req: Omit<T.ObjsQueryReq, 'project_id'>): Promise<string[]> =>
    (await store.objsQuery({ project_id: p, ...req }, ALICE)).objs.map((o) => `${o.object_id}:v${o.version_index}`);

  it('lists live versions by created_at, version_index; deleted ones never', async () => {
    expect(await ids({})).toEqual(['ds:v0', 'model:v0', 'ds:v1', 'op:v0', 'plain:v0', 'evalx:v0']);
    // latest moved back to plain v0 when v1 was deleted
    expect(await ids({ filter: { latest_only: true } })).toEqual(['model:v0', 'ds:v1', 'op:v0', 'plain:v0', 'evalx:v0']);
    expect(await store.objsQuery({ project_id: newProject('empty') }, ALICE)).toEqual({ objs: [] });
  });

  it('applies each filter field; empty lists and nulls are no condition', async () => {
    expect(await ids({ filter: { object_ids: ['ds', 'op'] } })).toEqual(['ds:v0', 'ds:v1', 'op:v0']);
    expect(await ids({ filter: { object_ids: [] } })).toHaveLength(6);
    expect(await ids({ filter: { is_op: true } })).toEqual(['op:v0']);
    expect(await ids({ filter: { is_op: false } })).toEqual(['ds:v0', 'model:v0', 'ds:v1', 'plain:v0', 'evalx:v0']);
    expect(await ids({ filter: { is_op: null } })).toHaveLength(6);
    expect(await ids({ filter: { base_object_classes: ['Dataset', 'Model'] } })).toEqual(['ds:v0', 'model:v0', 'ds:v1']);
    expect(await ids({ filter: { base_object_classes: [] } })).toHaveLength(6);
    expect(await ids({ filter: { leaf_object_classes: ['MyModel'] } })).toEqual(['model:v0']);
    // Versions without a class are not of an excluded class: they stay.
    expect(await ids({ filter: { exclude_base_object_classes: ['Dataset', 'Evaluation'] } })).toEqual(['model:v0', 'op:v0', 'plain:v0']);
    expect(await ids({ filter: { latest_only: true, base_object_classes: ['Dataset'], object_ids: ['ds'] } })).toEqual(['ds:v1']);
  });

  it('answers tags and aliases of versions that have none: no tags, and `latest` on the latest version only', async () => {
    const { objs } = await store.objsQuery({ project_id: p, filter: { object_ids: ['ds'] }, include_tags_and_aliases: true }, ALICE);
    expect(objs.map((o) => [o.tags, o.aliases])).toEqual([
      [[], []],
      [[], ['latest']],
    ]);
    expect(await ids({ filter: { aliases: ['latest'] } })).toEqual(await ids({ filter: { latest_only: true } }));
    expect(await ids({ filter: { aliases: ['prod', 'latest'], object_ids: ['ds'] } })).toEqual(['ds:v1']);
    expect(await ids({ filter: { aliases: ['prod'] } })).toEqual([]);
    expect(await ids({ filter: { tags: ['any'] } })).toEqual([]);
    expect(await ids({ filter: { tags: [], aliases: [] } })).toHaveLength(6);
    // Without the flag, neither key is present.
    const [first] = (await store.objsQuery({ project_id: p, limit: 1 }, ALICE)).objs as [T.ObjSchema];
    expect('tags' in first || 'aliases' in first || 'size_bytes' in first).toBe(false);
  });

  it('metadata_only answers val {}; include_storage_size adds size_bytes', async () => {
    const { objs } = await store.objsQuery(
      { project_id: p, filter: { object_ids: ['plain'] }, metadata_only: true, include_storage_size: true },
      ALICE,
    );
    expect(objs).toEqual([expect.objectContaining({ object_id: 'plain', val: {}, size_bytes: '{"x": 1}'.length, is_latest: 1 })]);
    const full = (await store.objsQuery({ project_id: p, filter: { object_ids: ['plain'] } }, ALICE)).objs;
    expect(full.map((o) => o.val)).toEqual([{ x: 1 }]);
    // The val column is not even selected.
    const compiled = objsQueryBuilder(getDb(), { project_id: p, metadata_only: true })?.compile().sql ?? '';
    expect(compiled).not.toMatch(/"val"/);
  });

  it('sorts by object_id and created_at in either direction, version_index breaking ties; refuses other fields', async () => {
    expect(await ids({ sort_by: [{ field: 'object_id', direction: 'asc' }] })).toEqual([
      'ds:v0',
      'ds:v1',
      'evalx:v0',
      'model:v0',
      'op:v0',
      'plain:v0',
    ]);
    expect(await ids({ sort_by: [{ field: 'object_id', direction: 'desc' }] })).toEqual([
      'plain:v0',
      'op:v0',
      'model:v0',
      'evalx:v0',
      'ds:v0',
      'ds:v1',
    ]);
    expect(await ids({ sort_by: [{ field: 'created_at', direction: 'desc' }] })).toEqual([
      'evalx:v0',
      'plain:v0',
      'op:v0',
      'ds:v1',
      'model:v0',
      'ds:v0',
    ]);
    // Weave ignores other fields; Weft refuses them rather than answer another order than asked.
    for (const field of ['val.x', 'digest']) {
      await expectWeftError(
        store.objsQuery({ project_id: p, sort_by: [{ field: field as 'object_id', direction: 'desc' }] }, ALICE),
        400,
        'InvalidRequest',
      );
    }
    await expectWeftError(
      store.objsQuery({ project_id: p, sort_by: [{ field: 'object_id', direction: 'up' as 'asc' }] }, ALICE),
      400,
      'InvalidRequest',
    );
  });

  it('puts versions written in the same millisecond newest first when sorting by created_at desc', async () => {
    const db = getDb();
    const q = newProject('objs-same-ms');
    for (const n of [0, 1, 2]) await store.objCreate({ obj: { project_id: q, object_id: 'ds', val: { n } } }, ALICE);
    await db.kysely.updateTable('objects').set({ created_at: '2026-01-01T00:00:00.000Z' }).where('project_id', '=', q).execute();
    const order = async (direction: 'asc' | 'desc') =>
      (await store.objsQuery({ project_id: q, sort_by: [{ field: 'created_at', direction }] }, ALICE)).objs.map((o) => o.version_index);
    expect(await order('desc')).toEqual([2, 1, 0]);
    expect(await order('asc')).toEqual([0, 1, 2]);
  });

  it('pages after filtering and sorting', async () => {
    const all = await ids({ sort_by: [{ field: 'object_id', direction: 'asc' }] });
    expect(await ids({ sort_by: [{ field: 'object_id', direction: 'asc' }], limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
    expect(await ids({ offset: 4 })).toEqual((await ids({})).slice(4));
    expect(await ids({ limit: 0 })).toEqual([]);
    expect(await ids({ offset: 100 })).toEqual([]);
    expect(await ids({ filter: { is_op: false }, limit: 2, offset: 3 })).toEqual(['plain:v0', 'evalx:v0']);
    await expectWeftError(store.objsQuery({ project_id: p, limit: -1 }, ALICE), 400, 'InvalidRequest');
    await expectWeftError(store.objsQuery({ project_id: p, offset: 1.5 }, ALICE), 400, 'InvalidRequest');
  });

  it('serves pages from an index starting with project_id, never sorting the whole project', async () => {
    const db = getDb();
    const plan = async (req: Omit<T.ObjsQueryReq, 'project_id'>): Promise<string> =>
      explain(db, objsQueryBuilder(db, { project_id: p, limit: 10, ...req })!.compile());
    const cases: [Omit<T.ObjsQueryReq, 'project_id'>, string][] = [
      [{ filter: { latest_only: true } }, 'objects_latest_created_idx'],
      [{ filter: { aliases: ['latest'] } }, 'objects_latest_created_idx'],
      [{}, 'objects_created_idx'],
      [{ sort_by: [{ field: 'created_at', direction: 'desc' }] }, 'objects_created_idx'],
      // SQLite names the index of the UNIQUE constraint itself.
      [
        { sort_by: [{ field: 'object_id', direction: 'desc' }] },
        db.dialect === 'postgres' ? 'objects_version_index_key' : 'sqlite_autoindex_objects_2',
      ],
    ];
    for (const [req, index] of cases) {
      const text = await plan(req);
      expect(text, JSON.stringify(req)).toContain(index);
      // SQLite: at most the trailing ORDER BY terms are sorted, group by group, as rows stream
      // from the index (PostgreSQL's equivalent, Incremental Sort, is chosen on real-sized tables).
      expect(text).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });
});
