// Server only: the keys a Weave SDK sends that Weave's insert models ignore (plain pydantic
// models) are ignored here too, so no write is lost for them: the TypeScript SDK's display_name
// on a call's end, and any key a newer SDK adds inside a start, an end, a batch item, an object or
// a table. The request wrappers stay closed, and a batch with an item that is refused writes
// nothing of it, as Weave's does.
import { describe, expect, test } from 'vitest';
import { endOf, startOf } from '../cases/calls.ts';
import { expectStatus, type SuiteContext } from '../suite-context.ts';

const EXTRA = { weft_unknown_field: { any: ['json'] } };

export function defineWeaveExtrasRoundTrip(s: SuiteContext): void {
  describe('keys Weave ignores', () => {
    const api = () => s.client({ scheme: 'basic', key: 'valid' });

    test("a batch with the TS SDK's display_name on the end is stored; the call keeps its start's name", async () => {
      const c = s.context();
      const start = startOf(c);
      const id = start.start.id!;
      const end = endOf(c, id);
      const { res } = await api().POST('/call/upsert_batch', {
        body: {
          batch: [
            { mode: 'start', req: { start: { ...start.start, display_name: 'From start', ...EXTRA } }, ...EXTRA },
            { mode: 'end', req: { end: { ...end.end, display_name: 'From end', ...EXTRA } }, ...EXTRA },
          ],
        } as never,
      });
      expect(res).toEqual([{ id, trace_id: start.start.trace_id }, {}]);
      const { call } = await api().POST('/call/read', { body: { project_id: c.projectId, id } });
      expect(call).toMatchObject({ display_name: 'From start', output: end.end.output, ended_at: end.end.ended_at });
      expect(call.summary).toMatchObject({ weave: { status: 'success', display_name: 'From start' } });
      expect(JSON.stringify(call)).not.toContain('weft_unknown_field');
    });

    test('an extra key in an object or table insert changes nothing; the fields read keep their checks', async () => {
      const c = s.context();
      const obj = { project_id: c.projectId, object_id: 'extras-object', val: { a: 1 } };
      const plain = await api().POST('/obj/create', { body: { obj } });
      const extra = await api().POST('/obj/create', { body: { obj: { ...obj, ...EXTRA } } as never });
      expect(extra).toEqual(plain);
      const table = { project_id: c.projectId, rows: [{ a: 1 }] };
      expect(await api().POST('/table/create', { body: { table: { ...table, ...EXTRA } } as never })).toEqual(
        await api().POST('/table/create', { body: { table } }),
      );
      // Lenient on unknown keys only: a known field of the wrong type is still a 422 naming it.
      const wrong = await expectStatus(api().POST('/obj/create', { body: { obj: { ...obj, ...EXTRA, object_id: 7 } } as never }), 422);
      expect(JSON.stringify(wrong.body)).toContain('object_id');
    });

    test('a stray key on a request wrapper is still refused, naming it', async () => {
      const c = s.context();
      const error = await expectStatus(api().POST('/call/start', { body: { ...startOf(c), ...EXTRA } as never }), 422);
      expect(JSON.stringify(error.body)).toContain('weft_unknown_field');
    });

    test('a batch with one refused item writes none of it, as Weave refuses the whole body', async () => {
      const c = s.context();
      const good = startOf(c);
      const id = good.start.id!;
      const { ended_at: _, ...endWithoutTime } = endOf(c, id).end;
      await expectStatus(
        api().POST('/call/upsert_batch', {
          body: {
            batch: [
              { mode: 'start', req: good },
              { mode: 'end', req: { end: endWithoutTime } },
            ],
          } as never,
        }),
        422,
      );
      await expectStatus(api().POST('/call/read', { body: { project_id: c.projectId, id } }), 404);
    });
  });
}
