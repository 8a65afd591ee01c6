// Calls as the Weave Python SDK writes and reads them (steps 1, 3, 9 and 11 of the reference's SDK
// run): init over /graphql, a nested call and a failing one through call/upsert_batch, get_calls
// with a query and columns (JSON Lines), their count, get_call, and delete_call with its child.
// Every body exactly as pydantic serializes it (no Content-Type, unset optionals as null).
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk } from './wire.ts';

const ATTRIBUTES = { weave: { client_version: '0.54.0', source: 'python-sdk', sys_version: '3.12.4', os_name: 'Linux' } };
const NULL_FILTER = {
  op_names: null,
  input_refs: null,
  output_refs: null,
  parent_ids: null,
  trace_ids: null,
  call_ids: null,
  thread_ids: null,
  turn_ids: null,
  trace_roots_only: null,
  wb_user_ids: null,
  wb_run_ids: null,
};

function start(project_id: string, id: string, op: string, parent_id: string | null, at: string, inputs: object) {
  return {
    mode: 'start',
    req: {
      start: {
        project_id,
        id,
        op_name: `weave:///${project_id}/op/${op}:Tz0Td1z5vMmHKBEPnBGEUkbSQkFQzGSAVzVIUPBHYpA`,
        display_name: null,
        trace_id: 'tr-1',
        parent_id,
        thread_id: null,
        turn_id: null,
        started_at: at,
        attributes: ATTRIBUTES,
        inputs,
        otel_dump: null,
        wb_user_id: null,
        wb_run_id: null,
        wb_run_step: null,
      },
    },
  };
}

function end(project_id: string, id: string, at: string, output: unknown, exception: string | null = null) {
  return { mode: 'end', req: { end: { project_id, id, ended_at: at, exception, output, summary: {}, wb_run_step_end: null } } };
}

function query(project_id: string, fields: Record<string, unknown>) {
  return {
    project_id,
    filter: NULL_FILTER,
    limit: null,
    offset: null,
    sort_by: null,
    query: null,
    include_costs: false,
    include_feedback: false,
    include_storage_size: false,
    include_total_storage_size: false,
    columns: null,
    expand_columns: null,
    return_expanded_column_values: true,
    ...fields,
  };
}

describeEachDatabase('Weave Python SDK: calls written, queried and deleted', (getServer) => {
  it('follows the SDK from init to delete_call', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const p = 'acme/py-calls';
    const graphql = async (q: string, variables?: object) =>
      (await sdk.post('/graphql', { query: q, ...(variables && { variables }) })).json();
    expect(
      await graphql('query Project($name: String!, $entityName: String!) { project(name: $name, entityName: $entityName) { name } }', {
        entityName: 'acme',
        name: 'py-calls',
      }),
    ).toEqual({
      data: { project: { name: 'py-calls' } },
    });
    expect(await graphql('query DefaultEntity { viewer { username defaultEntity { name } } }')).toEqual({
      data: { viewer: { username: 'alice', defaultEntity: { name: 'acme' } } },
    });

    const exception = JSON.stringify({ type: 'ValueError', message: 'boom', traceback: [] });
    const batches = [
      [
        start(p, 'c-classify', 'classify', null, '2026-11-25T10:00:00.000001Z', { text: 'I love it' }),
        start(p, 'c-tokenize', 'tokenize', 'c-classify', '2026-11-25T10:00:00.100000Z', { text: 'I love it' }),
        end(p, 'c-tokenize', '2026-11-25T10:00:00.200000Z', ['I', 'love', 'it']),
        end(p, 'c-classify', '2026-11-25T10:00:01.000000Z', 'positive'),
      ],
      [
        start(p, 'c-explode', 'explode', null, '2026-11-25T10:00:02.000000Z', {}),
        end(p, 'c-explode', '2026-11-25T10:00:02.500000Z', null, exception),
      ],
    ];
    const explode = batches[1]![0]!.req as { start: Record<string, unknown> };
    Object.assign(explode.start, { wb_run_id: 'acme/py-calls/run-7', wb_run_step: 3 });
    (batches[1]![1]!.req as { end: Record<string, unknown> }).end.wb_run_step_end = 4;
    for (const batch of batches) expect((await sdk.post('/call/upsert_batch', { batch })).status).toBe(200);
    // A field Weave's request model (extra="forbid") does not have is refused, naming it, rather
    // than dropped. (Inside `start`, Weave's StartedCallSchemaForInsert ignores extra keys, and so
    // does Weft: request-fields.test.ts.)
    const unknown = await sdk.post('/call/start', { ...start(p, 'c-x', 'x', null, '2026-11-25T10:00:03Z', {}).req, run_name: 'r' });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain('run_name');

    const lines = async (body: object) => {
      const res = await sdk.post('/calls/stream_query', body);
      expect(res.status).toBe(200);
      const text = new TextDecoder().decode(await res.bytes());
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    // get_calls(query=…, columns=…): the failing calls, narrowed.
    const errors = await lines(
      query(p, {
        query: { $expr: { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] } },
        columns: ['op_name', 'exception', 'summary.weave.status'],
        limit: 1000,
        offset: 0,
      }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ id: 'c-explode', exception, attributes: {}, inputs: {}, summary: { weave: { status: 'error' } } });
    const [explodeRead] = await lines(query(p, { filter: { ...NULL_FILTER, wb_run_ids: ['acme/py-calls/run-7'] } }));
    expect(explodeRead).toMatchObject({ id: 'c-explode', svc_run_id: 'acme/py-calls/run-7', svc_run_step: 3, svc_run_step_end: 4 });
    expect(Object.keys(errors[0]!).sort()).toEqual([
      'attributes',
      'exception',
      'id',
      'inputs',
      'op_name',
      'project_id',
      'started_at',
      'summary',
      'trace_id',
    ]);

    const count = async (fields: object) =>
      (
        (await (
          await sdk.post('/calls/query_stats', {
            project_id: p,
            filter: NULL_FILTER,
            query: null,
            limit: null,
            include_total_storage_size: false,
            expand_columns: null,
            ...fields,
          })
        ).json()) as { count: number }
      ).count;
    expect(await count({})).toBe(3);
    expect(await count({ filter: { ...NULL_FILTER, trace_roots_only: true } })).toBe(2);

    // get_call(id): the call with its status and latency, then its children.
    const [classify] = await lines(query(p, { filter: { ...NULL_FILTER, call_ids: ['c-classify'] } }));
    expect(classify).toMatchObject({ id: 'c-classify', output: 'positive', summary: { weave: { status: 'success', latency_ms: 1000 } } });
    expect((await lines(query(p, { filter: { ...NULL_FILTER, parent_ids: ['c-classify'] } }))).map((c) => c.id)).toEqual(['c-tokenize']);

    // delete_call: the child goes with it.
    expect(await (await sdk.post('/calls/delete', { project_id: p, call_ids: ['c-classify'], wb_user_id: null })).json()).toEqual({
      num_deleted: 2,
    });
    expect((await lines(query(p, {}))).map((c) => c.id)).toEqual(['c-explode']);
    expect(
      (
        await sdk.post('/call/read', {
          project_id: p,
          id: 'c-tokenize',
          include_costs: false,
          include_storage_size: false,
          include_total_storage_size: false,
        })
      ).status,
    ).toBe(404);
  });
});
