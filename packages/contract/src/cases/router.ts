// Cases of the inference router's OpenAI wire. A server target serves the spec examples' models
// (`meta-llama/Llama-3.1-8B-Instruct` for chat, `BAAI/bge-m3` for embeddings) from fake upstreams
// (apps/server/test/contract.test.ts); any other model is unknown, which the 404 check relies on.
// Errors here are OpenAI's (`x-weft-errors: openai`): a broken request is a 400 naming `param`.
// Real OpenAI clients, streams and fallbacks are tested in apps/server/test/router/.
import type { WeftClient } from '@weft/client';
import { invalid, type CaseContext, type ExtraInit, type OperationCase } from './case-types.ts';

export const CHAT_MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
export const EMBEDDINGS_MODEL = 'BAAI/bge-m3';

const chat = (api: WeftClient, c: CaseContext, body: unknown, extra?: ExtraInit) =>
  api.POST('/inference/router/gateway/chat/completions', {
    params: { header: { 'OpenAI-Project': c.projectId } },
    body: body as never,
    ...extra,
  });

const embed = (api: WeftClient, c: CaseContext, body: unknown, extra?: ExtraInit) =>
  api.POST('/inference/router/gateway/embeddings', {
    params: { header: { 'OpenAI-Project': c.projectId } },
    body: body as never,
    ...extra,
  });

const messages = [{ role: 'user', content: 'What is Weft?' }];

export const routerCases = {
  routerChatCompletionsCreate: {
    tenancy: 'project',
    // A model nobody configured: 404 on the server (the check of an unknown id).
    request: (api, c, extra) => chat(api, c, { model: c.id(), messages }, extra),
    // Streamed (server-sent events, checked event by event against ChatCompletionChunk), then whole.
    async valid(api, c) {
      await chat(api, c, { model: CHAT_MODEL, messages, stream: true, stream_options: { include_usage: true } });
      return chat(api, c, { model: CHAT_MODEL, messages });
    },
    invalid: [
      { name: 'an empty list of messages', param: 'messages', send: (api, c) => chat(api, c, { model: CHAT_MODEL, messages: [] }) },
      {
        name: 'a message without a role',
        param: 'messages[0].role',
        send: (api, c) => chat(api, c, { model: CHAT_MODEL, messages: invalid([{ content: 'hi' }]) }),
      },
      {
        name: 'a temperature above 2',
        param: 'temperature',
        send: (api, c) => chat(api, c, { model: CHAT_MODEL, messages, temperature: 3 }),
      },
    ],
  },

  routerEmbeddingsCreate: {
    tenancy: 'project',
    request: (api, c, extra) => embed(api, c, { model: c.id(), input: 'What is Weft?', encoding_format: 'float' }, extra),
    valid: (api, c) => embed(api, c, { model: EMBEDDINGS_MODEL, input: 'What is Weft?', encoding_format: 'float' }),
    invalid: [
      { name: 'a missing input', param: 'input', send: (api, c) => embed(api, c, { model: EMBEDDINGS_MODEL }) },
      {
        name: 'an encoding_format that is neither float nor base64',
        param: 'encoding_format',
        send: (api, c) => embed(api, c, { model: EMBEDDINGS_MODEL, input: 'hi', encoding_format: 'hex' }),
      },
    ],
  },

  routerEndpointsList: {
    tenancy: 'none',
    request: (api, _c, extra) => api.GET('/inference/router/endpoints', { ...extra }),
    invalid: [],
  },
} satisfies Record<string, OperationCase>;
