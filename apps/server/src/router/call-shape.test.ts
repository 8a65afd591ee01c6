import type { RecordFinish, RecordStart } from './call-shape.ts';
import { describe, expect, it } from 'vitest';
import { exceptionJson, shapeEnd, shapeInputs, shapeOutput, shapeStart } from './call-shape.ts';

const ids = { id: 'call-1', trace_id: 'trace-1' };
const pricing = { prompt: '0.00000022', completion: '0.00000088', input_cache_read: '0.00000011', request: '0', image: '0' };
const body = { model: 'llama', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2, api_key: 'sk-should-not-be-kept' };
const start: RecordStart = {
  projectId: 'acme/router',
  principal: { username: 'alice', entities: ['acme'], keyId: 'k', scope: 'admin' },
  op: 'openai.chat.completions.create',
  inputs: body,
  recordContent: true,
  parent: { trace_id: 'trace-1', parent_id: 'sdk-call' },
  startedAt: new Date('2026-01-02T03:04:05.000Z'),
  requestedModel: 'llama',
  stream: true,
  clientUserAgent: 'OpenAI/JS 7.55.0',
};
const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'llama', provider: 'p2', choices: [] };
const usage = {
  prompt_tokens: 1000,
  completion_tokens: 500,
  total_tokens: 1500,
  prompt_tokens_details: { cached_tokens: 200 },
  cost: 0.000638,
};
const finish: RecordFinish = {
  output: completion,
  served: { model: 'llama', provider: 'p2', upstream_model: 'meta/llama-3', pricing },
  priced: { usage, cost_usd: '0.000638' },
  attempts: [
    { model: 'llama', provider: 'p1', outcome: 'status_5xx', status: 503, latency_ms: 12 },
    { model: 'llama', provider: 'p1', outcome: 'status_5xx', status: 503, latency_ms: 10 },
    { model: 'llama', provider: 'p2', outcome: 'ok', status: 200, latency_ms: 40 },
  ],
  error: undefined,
  endedAt: new Date('2026-01-02T03:04:06.500Z'),
};

describe('the router call, shaped as Weave records an OpenAI call', () => {
  it('starts with the op name, the parent, the request body without credentials, and the gateway attributes', () => {
    const s = shapeStart(start, ids, finish);
    expect(s).toMatchObject({
      project_id: 'acme/router',
      id: 'call-1',
      trace_id: 'trace-1',
      parent_id: 'sdk-call',
      op_name: 'openai.chat.completions.create',
      started_at: '2026-01-02T03:04:05.000Z',
      inputs: { model: 'llama', messages: body.messages, temperature: 0.2 },
    });
    expect(s.inputs).not.toHaveProperty('api_key');
    expect(s.attributes).toEqual({
      weave: { source: 'weft-gateway' },
      gateway: {
        requested_model: 'llama',
        served_model: 'llama',
        provider: 'p2',
        deployment: 'meta/llama-3',
        attempts: finish.attempts,
        fallbacks_used: 1, // p1 (tried twice) given up for p2
        stream: true,
        client_ua: 'OpenAI/JS 7.55.0',
      },
    });
  });

  it('starts a stream before anything is known of how it is served', () => {
    expect(shapeStart({ ...start, parent: undefined }, ids).attributes).toMatchObject({
      gateway: { served_model: null, provider: null, attempts: [], fallbacks_used: 0 },
    });
    expect(shapeStart({ ...start, parent: undefined }, ids).parent_id).toBeNull();
  });

  it('ends with the completion, usage by the served model with requests: 1, and the exact cost beside it', () => {
    const e = shapeEnd(start, ids, finish);
    expect(e).toEqual({
      project_id: 'acme/router',
      id: 'call-1',
      trace_id: 'trace-1',
      started_at: '2026-01-02T03:04:05.000Z',
      ended_at: '2026-01-02T03:04:06.500Z',
      output: completion,
      summary: {
        usage: {
          llama: {
            requests: 1,
            prompt_tokens: 1000,
            completion_tokens: 500,
            total_tokens: 1500,
            prompt_tokens_details: { cached_tokens: 200 },
          },
        },
        gateway: { model: 'llama', provider: 'p2', upstream_model: 'meta/llama-3', cost_usd: '0.000638', pricing },
      },
      exception: null,
    });
  });

  it('keeps no messages and no output when content is off (usage and cost stay)', () => {
    const off = { ...start, recordContent: false };
    expect(shapeStart(off, ids).inputs).toEqual({ model: 'llama', temperature: 0.2 });
    const e = shapeEnd(off, ids, finish);
    expect(e.output).toBeNull();
    expect(e.summary).toHaveProperty('usage.llama.prompt_tokens', 1000);
    expect(shapeInputs('openai.embeddings.create', { model: 'e', input: ['secret text'], dimensions: 8 }, false)).toEqual({
      model: 'e',
      dimensions: 8,
    });
  });

  it("writes a failure as Weave's exception JSON, named like the openai client's error classes", () => {
    const error = { status: 429, type: 'rate_limit_error', code: 'rate_limited', param: null, message: 'slow down' };
    const e = shapeEnd(start, ids, { ...finish, priced: undefined, served: undefined, output: null, error });
    expect(JSON.parse(e.exception ?? 'null')).toEqual({
      type: 'RateLimitError',
      message: 'slow down',
      status: 429,
      error_type: 'rate_limit_error',
      code: 'rate_limited',
      param: null,
    });
    expect(e.summary).toEqual({});
    expect(JSON.parse(exceptionJson({ ...error, status: 503, type: 'service_unavailable' })).type).toBe('InternalServerError');
  });

  it('leaves embedding vectors out of the output, keeping their size', () => {
    const floats = Buffer.from(new Float32Array([1, 2, 3]).buffer).toString('base64');
    const out = shapeOutput('openai.embeddings.create', {
      object: 'list',
      model: 'e',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: floats },
      ],
    });
    expect(out).toEqual({
      object: 'list',
      model: 'e',
      data: [
        { object: 'embedding', index: 0, dimensions: 2 },
        { object: 'embedding', index: 1, dimensions: 3 },
      ],
    });
  });
});
