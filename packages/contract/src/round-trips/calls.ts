// Server only: a call's start and end are merged into one readable call, in either order; calls
// can be renamed and queried.
import { describe, expect, test } from 'vitest';
import { endOf, startOf } from '../cases/calls.ts';
import type { SuiteContext } from '../suite-context.ts';

export function defineCallRoundTrip(s: SuiteContext): void {
  describe('calls', () => {
    const api = () => s.client({ scheme: 'basic', key: 'valid' });

    test('start, end, read', async () => {
      const c = s.context();
      const start = startOf(c);
      const started = await api().POST('/call/start', { body: start });
      expect(started).toEqual({ id: start.start.id, trace_id: start.start.trace_id });
      const end = endOf(c, started.id);
      expect(await api().POST('/call/end', { body: end })).toEqual({});

      const { call } = await api().POST('/call/read', { body: { project_id: c.projectId, id: started.id } });
      expect(call).toMatchObject({
        id: started.id,
        trace_id: started.trace_id,
        project_id: c.projectId,
        op_name: start.start.op_name,
        started_at: start.start.started_at,
        ended_at: end.end.ended_at,
        inputs: start.start.inputs,
        output: end.end.output,
      });
      expect(call.summary).toMatchObject({ weave: { status: 'success' } });
    });

    test('an end that arrives before its start is merged with it', async () => {
      const c = s.context();
      const id = c.id();
      // Built in time order (a call cannot end before it starts), sent in the other.
      const start = startOf(c, id);
      const end = endOf(c, id);
      await api().POST('/call/end', { body: end });
      await api().POST('/call/start', { body: start });
      const { call } = await api().POST('/call/read', { body: { project_id: c.projectId, id } });
      expect(call.id).toBe(id);
      // The end's own time (ISO, milliseconds, UTC), not merely present: null would pass toBeDefined.
      expect(call.ended_at).toBe(end.end.ended_at);
      expect(call.output).toEqual(endOf(c, id).end.output);
    });

    test('update sets the display name; the stream query finds the call by id and by op', async () => {
      const c = s.context();
      const start = startOf(c);
      start.start.op_name = c.unique('op');
      const { id } = await api().POST('/call/start', { body: start });
      await api().POST('/call/end', { body: endOf(c, id) });
      expect(await api().POST('/call/update', { body: { project_id: c.projectId, call_id: id, display_name: 'Renamed' } })).toEqual({});

      const byId = await api().callsStreamQuery({ project_id: c.projectId, filter: { call_ids: [id] } });
      expect(byId).toHaveLength(1);
      expect(byId[0]).toMatchObject({ id, display_name: 'Renamed', op_name: start.start.op_name, output: endOf(c, id).end.output });
      const byOp = await api().callsStreamQuery({ project_id: c.projectId, filter: { op_names: [start.start.op_name] } });
      expect(byOp.map((call) => call.id)).toEqual([id]);
      expect(await api().callsStreamQuery({ project_id: c.projectId, filter: { call_ids: [c.id()] } })).toEqual([]);
    });

    test('a batch of a start and its end answers one result per item', async () => {
      const c = s.context();
      const start = startOf(c);
      const id = start.start.id!;
      const { res } = await api().POST('/call/upsert_batch', {
        body: {
          batch: [
            { mode: 'start', req: start },
            { mode: 'end', req: endOf(c, id) },
          ],
        },
      });
      expect(res).toEqual([{ id, trace_id: start.start.trace_id }, {}]);
      const { call } = await api().POST('/call/read', { body: { project_id: c.projectId, id } });
      expect(call.ended_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
    });
  });
}
