// A valid request for any operation of the spec, made from its own examples (which name acme's
// projects): what the tenancy and scope suites send, with the key they test.
import type { OpenApiDocument, SpecOperation } from '@weft/types/spec';
import { deref } from '@weft/types/spec';
import { spec } from '../src/http/spec.ts';

const doc = spec as unknown as OpenApiDocument;

function exampleBody(op: SpecOperation): unknown {
  const item = doc.paths[op.path]?.[op.method as 'post'];
  if (!item?.requestBody) return undefined;
  const media = deref(doc, item.requestBody).content[op.requestMediaTypes[0] ?? 'application/json'] as
    { examples?: Record<string, { value: unknown }> } | undefined;
  const first = Object.values(media?.examples ?? {})[0]?.value;
  // Every example names acme's projects: alice's entity, not bob's.
  return first === undefined ? undefined : (JSON.parse(JSON.stringify(first).replaceAll('"entity":null', '"entity":"acme"')) as unknown);
}

/** Sends `op`'s example request with `key`; `modelId` fills `{model_id}` (a model of acme's). */
export function sendExample(url: string, op: SpecOperation, key: string, modelId: string): Promise<Response> {
  const scheme = op.schemes[0];
  const headers: Record<string, string> = {
    authorization: scheme === 'bearer' ? `Bearer ${key}` : `Basic ${Buffer.from(`api:${key}`).toString('base64')}`,
  };
  // The router's operations name the project in a header (the `openai` client's `project`).
  if (op.parameters.some((p) => p.in === 'header' && p.name === 'OpenAI-Project')) headers['openai-project'] = 'acme/support-bot';
  const body = exampleBody(op);
  let payload: BodyInit | undefined;
  if (op.bodyMode === 'multipart') {
    const form = new FormData();
    form.set('project_id', 'acme/support-bot');
    form.set('file', new Blob(['x']), 'x.txt');
    payload = form;
  } else if (body !== undefined) {
    headers['content-type'] = op.requestMediaTypes[0] ?? 'application/json';
    payload = JSON.stringify(body);
  }
  // Other path parameters from their examples (acme's object and its version).
  const path = op.path
    .replace('{model_id}', modelId)
    .replace('{queue_id}', '0197331d-02aa-7d5c-a1e3-4f6b8c9d0e12')
    .replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeURIComponent(String((op.parameters.find((p) => p.name === name) as { example?: unknown } | undefined)?.example)),
    );
  // Required query parameters from their examples, which name acme's projects too.
  const required = op.parameters.filter((p) => p.in === 'query' && p.required === true);
  const query =
    required.length > 0 ? `?${new URLSearchParams(required.map((p) => [p.name, String((p as { example?: unknown }).example)]))}` : '';
  return fetch(`${url}${path}${query}`, { method: op.method.toUpperCase(), headers, body: payload });
}
