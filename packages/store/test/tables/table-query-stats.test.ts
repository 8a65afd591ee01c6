// tableQueryStats: a table's rows counted with their duplicates, the empty table 0, an unknown
// digest 0, and another project's table of the same digest never counted in this one.
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { newProject, storeOn, viaHttp } from '../objects/helpers.ts';

describeEachDialect('table query stats', (getDb) => {
  it('counts rows, duplicates included, per project', async () => {
    const store = storeOn(getDb());
    const p = newProject('stats');
    const other = newProject('stats-other');
    const create = (project: string, rows: string) =>
      store.tableCreate(...viaHttp<never>(`{"table":{"project_id":"${project}","rows":${rows}}}`));
    const { digest } = await create(p, '[{"a":1},{"a":1},{"a":2}]');
    const { digest: empty } = await create(p, '[]');
    expect(await store.tableQueryStats({ project_id: p, digest }, { user: 'alice' })).toEqual({ count: 3 });
    expect(await store.tableQueryStats({ project_id: p, digest: empty }, { user: 'alice' })).toEqual({ count: 0 });
    expect(await store.tableQueryStats({ project_id: p, digest: 'no-such-digest' }, { user: 'alice' })).toEqual({ count: 0 });
    expect(await store.tableQueryStats({ project_id: other, digest }, { user: 'alice' })).toEqual({ count: 0 });

    // The batch form: in the order asked, unknown digests and other projects' tables left out, each once.
    const batch = (project_id: string, digests: string[] | null) => store.tableQueryStatsBatch({ project_id, digests }, { user: 'alice' });
    expect(await batch(p, [empty, 'no-such-digest', digest, empty])).toEqual({
      tables: [
        { digest: empty, count: 0 },
        { digest, count: 3 },
      ],
    });
    expect(await batch(other, [digest])).toEqual({ tables: [] });
    expect(await batch(p, null)).toEqual({ tables: [] });
  });
});
