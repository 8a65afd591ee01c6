// The official `openai` npm client against Weft's router, unmodified but for its baseURL and a Weft
// key: whole and streamed completions, the parameters that pass through, embeddings in the
// client's default base64, the model list, and errors it parses as OpenAI's — on both databases.
import { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chunk, completion, delta, textChunks, usageOf } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import type { TestDatabase } from '../test-server.ts';
import { KEY_A, startRouterKit, type RouterKit } from './router-kit.ts';

const messages = [{ role: 'user' as const, content: 'Say hello' }];

/** The error a call failed with (the test fails if it succeeded). */
async function failure(call: Promise<unknown>): Promise<APIError> {
  const outcome = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome, 'the call should have failed').toBeInstanceOf(APIError);
  return outcome as APIError;
}

function suite(database: TestDatabase) {
  return () => {
    let kit: RouterKit;
    beforeAll(async () => {
      kit = await startRouterKit({ database });
    });
    afterAll(async () => kit?.close());

    test('a whole completion: the router model, the provider, usage and its cost', async () => {
      kit.a.script({ kind: 'json', body: completion('Hello there', { usage: usageOf(12, 3) }) });
      const before = kit.a.requests.length;
      const answer = await kit.openai().chat.completions.create({ model: 'chat', messages });
      expect(answer.choices[0]?.message.content).toBe('Hello there');
      expect(answer.model).toBe('chat');
      expect((answer as unknown as { provider: string }).provider).toBe('a');
      expect(answer.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cost: 0 });
      const upstream = kit.a.requests[before]!;
      // The upstream model name, the provider's key (never the caller's Weft key).
      expect(upstream.body).toMatchObject({ model: 'a-chat', messages });
      expect(upstream.headers.authorization).toBe(`Bearer ${KEY_A}`);
    });

    test('response_format, n, stop, seed and logprobs reach the upstream as sent', async () => {
      const before = kit.a.requests.length;
      await kit.openai().chat.completions.create({
        model: 'chat',
        messages,
        response_format: { type: 'json_object' },
        n: 2,
        stop: ['\n\n', 'END'],
        seed: 42,
        logprobs: true,
        top_logprobs: 3,
        temperature: 0.5,
      });
      expect(kit.a.requests[before]!.body).toMatchObject({
        response_format: { type: 'json_object' },
        n: 2,
        stop: ['\n\n', 'END'],
        seed: 42,
        logprobs: true,
        top_logprobs: 3,
        temperature: 0.5,
      });
    });

    test('a stream with include_usage: chunks as sent, the usage chunk last with empty choices', async () => {
      kit.a.script({ kind: 'stream', items: textChunks(['Hel', 'lo']), usage: usageOf(9, 2) });
      const stream = await kit.openai().chat.completions.create({
        model: 'chat',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = [];
      for await (const c of stream) chunks.push(c);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello');
      expect(chunks.every((c) => c.model === 'chat')).toBe(true);
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    });

    test('a stream with logprobs and n = 2: every choice and its logprobs pass through', async () => {
      const lp = (token: string) => ({ content: [{ token, logprob: -0.1, bytes: null, top_logprobs: [] }] });
      kit.a.script({
        kind: 'stream',
        items: [
          chunk([
            delta(0, { role: 'assistant', content: 'A' }, null, lp('A')),
            delta(1, { role: 'assistant', content: 'B' }, null, lp('B')),
          ]),
          chunk([delta(0, {}, 'stop'), delta(1, {}, 'stop')]),
        ],
      });
      const stream = await kit.openai().chat.completions.create({ model: 'chat', messages, stream: true, n: 2, logprobs: true });
      const byChoice = new Map<number, string>();
      const tokens: string[] = [];
      for await (const c of stream)
        for (const choice of c.choices) {
          byChoice.set(choice.index, (byChoice.get(choice.index) ?? '') + (choice.delta.content ?? ''));
          for (const t of choice.logprobs?.content ?? []) tokens.push(t.token);
        }
      expect(Object.fromEntries(byChoice)).toEqual({ 0: 'A', 1: 'B' });
      expect(tokens.sort()).toEqual(['A', 'B']);
    });

    test("embeddings in the client's default base64 come back as the upstream's floats", async () => {
      kit.a.script({
        kind: 'json',
        body: {
          object: 'list',
          data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25, 1] }],
          model: 'x',
          usage: { prompt_tokens: 3, total_tokens: 3 },
        },
      });
      const before = kit.a.requests.length;
      const answer = await kit.openai().embeddings.create({ model: 'embed', input: 'hello' });
      expect(kit.a.requests[before]!.body).toMatchObject({ model: 'a-embed', input: 'hello' });
      expect(answer.data[0]?.embedding).toEqual([0.5, -0.25, 1]);
      expect(answer.model).toBe('embed');
    });

    test("models.list() lists the router file's models", async () => {
      const ids = [];
      for await (const model of await kit.openai().models.list()) ids.push(model.id);
      expect(ids).toEqual(['chat', 'only-a', 'only-b', 'embed']);
    });

    test("an unknown model: 404 in OpenAI's shape, naming the parameter", async () => {
      const error = await failure(kit.openai().chat.completions.create({ model: 'nobody-serves-this', messages }));
      expect(error.status).toBe(404);
      expect(error.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    });

    test('a request that breaks the schema: 400 invalid_request_error with param, never 422', async () => {
      const error = await failure(kit.openai().chat.completions.create({ model: 'chat', messages, temperature: 7 }));
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ type: 'invalid_request_error', param: 'temperature' });
      const missing = await failure(kit.openai().chat.completions.create({ model: 'chat', messages: [] }));
      expect(missing.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });
    });

    test('a wrong key: 401 authentication_error, and the upstream is never called', async () => {
      const before = kit.a.requests.length + kit.b.requests.length;
      const error = await failure(kit.openai({ apiKey: 'not-a-weft-key' }).chat.completions.create({ model: 'chat', messages }));
      expect(error.status).toBe(401);
      expect(error.error).toMatchObject({ type: 'authentication_error' });
      expect(kit.a.requests.length + kit.b.requests.length).toBe(before);
    });

    test("a project of another entity: 403 permission_error in OpenAI's shape", async () => {
      const client = kit.openai();
      const error = await failure(
        client.chat.completions.create({ model: 'chat', messages }, { headers: { 'OpenAI-Project': 'globex/x' } }),
      );
      expect(error.status).toBe(403);
      expect(error.error).toMatchObject({ type: 'permission_error' });
    });
  };
}

describe('the openai client through the router [sqlite]', suite('sqlite'));
describeIfPostgres('the openai client through the router [postgres]', suite('postgres'));
