// Stable orders of the calls lists (calls/stream_query, calls/query, the calls of OTLP spans, a
// call's feedback): rows with equal timestamps and equal sort values come back in id order, the
// unique tie-break, whatever order they were written in, read after read and across pages.
import { ExportTraceServiceRequest, otlpProjects } from '@weft/core';
import { fixtureSpan } from '@weft/core/testing';
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { callsStreamQuery } from '../../src/calls/calls-stream-query.ts';
import type { Db } from '../../src/db/index.ts';
import { callRef, feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, catalogue, ctx, endReq, startReq, weaveOf } from './call-fixtures.ts';

const at = (s: number) => `2025-06-03T09:00:${String(s).padStart(2, '0')}.000Z`;
/** Written in this order, which is not id order; all share a start, an end, an op and inputs. */
const TIED = ['c3', 'c0', 'c5', 'c1', 'c4', 'c2'];
const BY_ID = [...TIED].sort();

async function ids(db: Db, req: Partial<T.CallsStreamQueryReq> & { project_id: string }, pageSize?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const call of callsStreamQuery(db, catalogue, req, ctx, pageSize)) out.push(call.id);
  return out;
}

describeEachDialect('stable orders: calls', (getDb) => {
  const p = 'stable/calls';
  const sorts: [string, T.CallsSortItem[] | undefined, string[]][] = [
    ['default (started_at, then id)', undefined, ['z-first', ...BY_ID, 'a-last']],
    ['started_at desc', [{ field: 'started_at', direction: 'desc' }], ['a-last', ...BY_ID, 'z-first']],
    ['op_name (all equal)', [{ field: 'op_name', direction: 'desc' }], ['a-last', ...BY_ID, 'z-first']],
    ['trace_id (all equal)', [{ field: 'trace_id', direction: 'asc' }], ['a-last', ...BY_ID, 'z-first']],
    ['ended_at desc', [{ field: 'ended_at', direction: 'desc' }], ['a-last', ...BY_ID, 'z-first']],
    ['inputs.k asc', [{ field: 'inputs.k', direction: 'asc' }], ['z-first', ...BY_ID, 'a-last']],
    ['inputs.k desc', [{ field: 'inputs.k', direction: 'desc' }], ['a-last', ...BY_ID, 'z-first']],
    ['a missing path', [{ field: 'inputs.nope', direction: 'desc' }], ['a-last', ...BY_ID, 'z-first']],
  ];

  // Calls that tie on every sort field, written in an order that is not id order.
  beforeAll(async () => {
    const calls = callsOf(getDb());
    const write = async (id: string, start: number, k: number) => {
      await calls.callStart(startReq(p, { id, trace_id: 'T', started_at: at(start), inputs: { k } }), ctx);
      await calls.callEnd(endReq(p, id, { ended_at: at(start + 1) }), ctx);
    };
    await write('a-last', 7, 2);
    for (const id of TIED) await write(id, 5, 1);
    await write('z-first', 0, 0);
  });

  for (const [label, sort_by, expected] of sorts) {
    it(`calls/stream_query, ${label}: id breaks ties on every read and at every page size`, async () => {
      const db = getDb();
      // 1, 2 and 4: internal pages end inside the tied run (keyset or OFFSET paging alike).
      for (const pageSize of [1, 2, 4, 1000]) {
        for (let read = 0; read < 3; read++)
          expect(await ids(db, { project_id: p, sort_by }, pageSize), `page ${pageSize}`).toEqual(expected);
        expect(await ids(db, { project_id: p, sort_by, limit: 3, offset: 2 }, pageSize)).toEqual(expected.slice(2, 5));
        expect(await ids(db, { project_id: p, sort_by, offset: 5 }, pageSize)).toEqual(expected.slice(5));
      }
    });
  }

  it('calls/query answers the same order, page by page', async () => {
    const calls = callsOf(getDb());
    for (const [label, sort_by, expected] of sorts) {
      const page = async (limit?: number, offset?: number) =>
        (await calls.callsQuery({ project_id: p, sort_by, limit, offset }, ctx)).calls.map((c) => c.id);
      expect(await page(), label).toEqual(expected);
      expect(await page(), label).toEqual(expected);
      const pages = [await page(3, 0), await page(3, 3), await page(3, 6)];
      expect(pages.flat(), label).toEqual(expected);
    }
  });

  it('calls of OTLP spans starting within one millisecond come back by span id', async () => {
    const calls = callsOf(getDb());
    const project = 'stable/otel';
    const base = 1_749_000_000_000_000_000n;
    // Sub-millisecond starts, in reverse of span id order: stored times are milliseconds, so all tie.
    const spanIds = ['0000000000000004', '0000000000000002', '0000000000000003', '0000000000000001'];
    const spans = spanIds.map((spanId, i) =>
      fixtureSpan({
        traceId: Buffer.from('000000000000000000000000000000aa', 'hex'),
        spanId: Buffer.from(spanId, 'hex'),
        name: 'chat',
        kind: 3,
        startTimeUnixNano: String(base + BigInt(i) * 1000n),
        endTimeUnixNano: String(base + 5_000_000n),
      }),
    );
    const bytes = ExportTraceServiceRequest.encode({
      resourceSpans: [
        {
          resource: { attributes: [], droppedAttributesCount: 0 },
          scopeSpans: [{ scope: undefined, spans, schemaUrl: '' }],
          schemaUrl: '',
        },
      ],
    }).finish();
    const request = ExportTraceServiceRequest.decode(bytes);
    await calls.otelExport({ request, projects: otlpProjects(request, project) }, ctx);
    const expected = [...spanIds].sort();
    for (const pageSize of [1, 3, 1000]) {
      for (let read = 0; read < 3; read++) expect(await ids(getDb(), { project_id: project }, pageSize)).toEqual(expected);
    }
    const desc = await ids(getDb(), { project_id: project, sort_by: [{ field: 'started_at', direction: 'desc' }] }, 2);
    expect(desc).toEqual(expected);
  });

  it("a call's feedback written in one batch (one created_at) comes back by id", async () => {
    const db = getDb();
    const project = 'stable/call-feedback';
    const calls = callsOf(db);
    await calls.callStart(startReq(project, { id: 'c' }), ctx);
    const item = (id: string) => ({
      id,
      project_id: project,
      weave_ref: callRef(project, 'c'),
      feedback_type: 'wandb.note.1',
      payload: { note: id },
    });
    await feedbackMethods({ db }).feedbackBatchCreate({ batch: ['f2', 'f0', 'f3', 'f1'].map(item) }, ctx);
    for (let read = 0; read < 3; read++) {
      const [call] = (await calls.callsQuery({ project_id: project, include_feedback: true }, ctx)).calls;
      expect((weaveOf(call!).feedback as { id: string }[]).map((f) => f.id)).toEqual(['f0', 'f1', 'f2', 'f3']);
    }
  });
});
