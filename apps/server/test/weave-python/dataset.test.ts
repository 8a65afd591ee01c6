// A Dataset as the Weave Python SDK publishes and reads it back (steps 6–8 of the reference's SDK
// run): table/create, then obj/create of the Dataset naming the table; obj/read, table/query_stats,
// table/query with pydantic's nulls written out, table/query_stats_batch, then a row ref through
// refs/read_batch. No Content-Type on any of it. Both databases.
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk } from './wire.ts';

describeEachDatabase('Weave Python SDK: a Dataset published and read back', (getServer) => {
  it('reads back the rows, their count and one row by ref', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-dataset';
    const rows = [
      { question: 'How do I reset my password?', expected: 'Settings → Security' },
      { question: 'Can I get a refund?', expected: 'Within 30 days' },
      { question: 'Do you ship abroad?', expected: 'Yes, to 40 countries' },
    ];
    const table = (await (await sdk.post('/table/create', { table: { project_id, rows } })).json()) as {
      digest: string;
      row_digests: string[];
    };
    expect(table.row_digests).toHaveLength(3);
    const val = {
      _type: 'Dataset',
      name: 'support-questions',
      description: null,
      rows: `weave:///${project_id}/table/${table.digest}`,
      _class_name: 'Dataset',
      _bases: ['Object', 'BaseModel'],
    };
    const created = await sdk.post('/obj/create', {
      obj: { project_id, object_id: 'support-questions', val, builtin_object_class: null, wb_user_id: null },
    });
    expect(created.status).toBe(200);
    const { digest } = (await created.json()) as { digest: string };

    const read = await sdk.post('/obj/read', { project_id, object_id: 'support-questions', digest: 'latest', metadata_only: false });
    expect(((await read.json()) as { obj: { val: unknown; base_object_class: unknown } }).obj).toMatchObject({
      val,
      base_object_class: 'Dataset',
    });

    expect(await (await sdk.post('/table/query_stats', { project_id, digest: table.digest })).json()).toEqual({ count: 3 });
    const page = await sdk.post('/table/query', {
      project_id,
      digest: table.digest,
      filter: { row_digests: null },
      limit: 100,
      offset: 0,
      sort_by: null,
    });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { rows: { val: unknown; digest: string }[] }).rows.map((r) => [r.digest, r.val])).toEqual(
      rows.map((r, i) => [table.row_digests[i], r]),
    );
    const batch = await sdk.post('/table/query_stats_batch', { project_id, digests: [table.digest], include_storage_size: false });
    expect(await batch.json()).toEqual({ tables: [{ digest: table.digest, count: 3 }] });

    // `ds.rows[1]` as a ref: the object by digest, its rows attribute, then the row by its digest.
    const rowRef = `weave:///${project_id}/object/support-questions:${digest}/attr/rows/id/${table.row_digests[1]}`;
    const refs = await sdk.post('/refs/read_batch', { refs: [rowRef] });
    expect(refs.status).toBe(200);
    expect(await refs.json()).toEqual({ vals: [rows[1]] });
  });
});
