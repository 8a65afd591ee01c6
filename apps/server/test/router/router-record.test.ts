// Every request through Weft's router becomes a call in the caller's project, shaped like the Weave
// SDK's OpenAI integration records one, with its parent from the caller's headers: checked through
// Weft's own API after real `openai` client requests, on both databases.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { completion, textChunks, usageOf } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import type * as T from '@weft/types';
import { waitFor } from '../faults/kit/wait-for.ts';
import type { TestDatabase } from '../test-server.ts';
import { startRouterKit, type RouterKit } from './router-kit.ts';

const PROJECT = 'acme/router-tests';
const messages = [{ role: 'user' as const, content: 'Say hello' }];
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

function suite(database: TestDatabase) {
  return () => {
    let kit: RouterKit;
    beforeAll(async () => {
      kit = await startRouterKit({ database });
    });
    afterAll(async () => kit?.close());

    /** The call once its end is written (records are written in the background, after the answer). */
    async function endedCall(id: string, project = PROJECT): Promise<T.CallSchema> {
      return waitFor(
        async () => {
          const read = await kit.server
            .client()
            .POST('/call/read', { body: { project_id: project, id, include_costs: true } })
            .catch(() => undefined);
          return read?.call?.ended_at ? read.call : undefined;
        },
        { timeoutMs: 10_000, what: `the end of call ${id}` },
      );
    }

    test('a completion served after a fallback: op, inputs, output, usage by the served model, gateway attributes', async () => {
      kit.a.script({ kind: 'error', status: 503 });
      kit.b.script({ kind: 'json', body: completion('Hello there', { usage: usageOf(12, 3) }) });
      const { data, response } = await kit
        .openai()
        .chat.completions.create({ model: 'chat', messages, temperature: 0.3 }, { headers: { 'User-Agent': 'record-test/1' } })
        .withResponse();
      const id = response.headers.get('x-weft-call-id');
      expect(id).toBeTruthy();
      const call = await endedCall(id ?? '');
      expect(call).toMatchObject({
        project_id: PROJECT,
        op_name: 'openai.chat.completions.create',
        inputs: { model: 'chat', messages, temperature: 0.3 },
        output: { model: 'chat', provider: 'b', choices: [{ message: { content: 'Hello there' } }] },
        summary: {
          usage: { chat: { requests: 1, prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } },
          gateway: { model: 'chat', provider: 'b', cost_usd: expect.any(String) as string },
          weave: { status: 'success' },
        },
        attributes: {
          weave: { source: 'weft-gateway' },
          gateway: { requested_model: 'chat', served_model: 'chat', provider: 'b', deployment: 'b-chat', fallbacks_used: 1, stream: false },
        },
      });
      expect((call.attributes as { gateway: { client_ua: string } }).gateway.client_ua).toContain('record-test/1');
      expect(call.parent_id ?? null).toBeNull();
      expect(data.choices[0]?.message.content).toBe('Hello there');
    });

    test('a stream under a W3C traceparent: a child of that span, the accumulated output', async () => {
      kit.a.script({ kind: 'stream', items: textChunks(['Hel', 'lo']), usage: usageOf(9, 2) });
      const { data: stream, response } = await kit
        .openai()
        .chat.completions.create({ model: 'chat', messages, stream: true }, { headers: { traceparent: `00-${TRACE}-${SPAN}-01` } })
        .withResponse();
      for await (const _ of stream) void _;
      const call = await endedCall(response.headers.get('x-weft-call-id') ?? '');
      expect(call).toMatchObject({
        trace_id: TRACE,
        parent_id: SPAN,
        output: { choices: [{ message: { content: 'Hello' } }] },
        summary: { usage: { chat: { requests: 1, prompt_tokens: 9, completion_tokens: 2 } } },
        attributes: { gateway: { stream: true, provider: 'a' } },
      });
    });

    test('X-Weft-Trace-Id / X-Weft-Parent-Call-Id, and content switched off by the request', async () => {
      kit.a.script({ kind: 'json', body: completion('private answer', { usage: usageOf(4, 2) }) });
      const { response } = await kit
        .openai()
        .chat.completions.create(
          { model: 'chat', messages },
          { headers: { 'X-Weft-Trace-Id': 'sdk-trace', 'X-Weft-Parent-Call-Id': 'sdk-call', 'X-Weft-Record-Content': 'false' } },
        )
        .withResponse();
      const call = await endedCall(response.headers.get('x-weft-call-id') ?? '');
      expect(call).toMatchObject({ trace_id: 'sdk-trace', parent_id: 'sdk-call', inputs: { model: 'chat' } });
      expect(call.inputs).not.toHaveProperty('messages');
      expect(call.output ?? null).toBeNull();
      expect(call.summary).toMatchObject({ usage: { chat: { prompt_tokens: 4, completion_tokens: 2 } } });
    });

    test('a final upstream failure is recorded with the exception, in Weave’s JSON form', async () => {
      kit.a.script({ kind: 'error', status: 500 });
      const failed = await kit
        .openai()
        .chat.completions.create({ model: 'only-a', messages })
        .withResponse()
        .then(
          () => undefined,
          (e: unknown) => e as { headers?: Headers; status?: number },
        );
      expect(failed?.status).toBeGreaterThanOrEqual(500);
      const id = failed?.headers?.get('x-weft-call-id');
      expect(id).toBeTruthy();
      const call = await endedCall(id ?? '');
      expect(JSON.parse(call.exception ?? '{}')).toMatchObject({
        type: expect.any(String) as string,
        status: expect.any(Number) as number,
      });
      expect(call.summary).toMatchObject({ weave: { status: 'error' } });
    });
  };
}

describe('router calls recorded [sqlite]', suite('sqlite'));
describeIfPostgres('router calls recorded [postgres]', () => suite('postgres')());
