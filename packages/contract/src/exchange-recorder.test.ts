import { expect, test } from 'vitest';
import { createExchangeRecorder } from './exchange-recorder.ts';

test('records every answer and still hands the caller an unread body', async () => {
  const recorder = createExchangeRecorder(
    async () => new Response('{"ok":true}', { status: 201, headers: { 'Content-Type': 'application/json' } }),
  );

  const response = await recorder.fetch(new Request('http://weft.test/obj/read?x=1', { method: 'POST', body: '{}' }));

  expect(await response.json()).toEqual({ ok: true });
  const last = recorder.last();
  expect(last).toMatchObject({ method: 'POST', status: 201, text: '{"ok":true}' });
  expect(last?.url.pathname).toBe('/obj/read');
  expect(recorder.take()).toHaveLength(1);
  expect(recorder.take()).toEqual([]);
  expect(recorder.last()).toBeUndefined();
});
