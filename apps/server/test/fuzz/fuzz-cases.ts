// Requests for the fuzz suite, generated from the spec: every operation's request examples (true
// requests, so many reach deep into the store), then mutated the way a hostile or broken client
// would: fields removed or replaced by hostile values, whole bodies replaced, wrong or lying
// headers, corrupt compression, odd paths. Each case is plain data, so a failing case prints whole.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { OpenApiDocument, SpecOperation } from '@weft/types/spec';
import { deref } from '@weft/types/spec';

export interface FuzzCase {
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Body bytes as base64 (so the case prints and replays exactly), or undefined. */
  body: string | undefined;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values that have broken servers before: huge, deep, malformed, out of range. */
const hostile: fc.Arbitrary<Json | { raw: string }> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(null, '', -1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.1, true, [], {}, '\u0000', 'x'.repeat(70_000)),
  fc.constantFrom({ raw: '1e400' }, { raw: '12345678901234567890123' }, { raw: '"\\ud800"' }, { raw: '"\\udfff x"' }, { raw: '-0' }),
  fc.integer({ min: 1, max: 2_500 }).map((d) => ({ raw: `${'['.repeat(d)}${']'.repeat(d)}` })),
  fc
    .integer({ min: 0, max: 30_000 })
    .map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? { field: 'x', direction: 'asc' } : 'a')) as Json),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

/** JSON text of `value`, where `{ raw }` leaves are written as their raw text. */
function toText(value: unknown): string {
  if (value !== null && typeof value === 'object' && 'raw' in value && Object.keys(value).length === 1)
    return String((value as { raw: string }).raw);
  if (Array.isArray(value)) return `[${value.map(toText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Every key path of a JSON value (objects and arrays), root excluded. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function setAt(value: unknown, path: Array<string | number>, leaf: unknown, remove: boolean): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = leaf;
  return copy;
}

/** The examples of an operation's JSON body, with their projects moved to the test entity. */
function bodyExamples(doc: OpenApiDocument, op: SpecOperation, entity: string): unknown[] {
  const item = doc.paths[op.path]?.[op.method as 'post'];
  const body = item?.requestBody ? deref(doc, item.requestBody) : undefined;
  const media = body?.content['application/json'] as { examples?: Record<string, { value: unknown }> } | undefined;
  const examples = Object.values(media?.examples ?? {}).map((e) => e.value);
  return examples.map((e) => JSON.parse(JSON.stringify(e).replace(/"acme\//g, `"${entity}/`)) as unknown);
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=x',
  'application/x-protobuf',
  '',
];

export function fuzzCase(
  doc: OpenApiDocument,
  operations: readonly SpecOperation[],
  entity: string,
  authorization: (op: SpecOperation) => string,
): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...operations).chain((op) => {
    const examples = bodyExamples(doc, op, entity);
    const base = examples.length > 0 ? fc.constantFrom(...examples) : fc.constant<unknown>({ project_id: `${entity}/fuzz` });
    const mutated: fc.Arbitrary<string> = base.chain((example) => {
      const keyPaths = paths(example);
      const mutations: Array<fc.Arbitrary<string>> = [
        fc.constant(toText(example)),
        // Empty and blank bodies (a missing one is a body shape, below).
        fc.constantFrom('', ' ', '\n'),
        fc.jsonValue().map((v) => JSON.stringify(v)),
        hostile.map(toText),
      ];
      if (keyPaths.length > 0) {
        mutations.push(
          fc.tuple(fc.constantFrom(...keyPaths), hostile).map(([p, v]) => toText(setAt(example, p, v, false))),
          fc.constantFrom(...keyPaths).map((p) => toText(setAt(example, p, undefined, true))),
        );
      }
      return fc.oneof(...mutations);
    });
    const params = fc.record({
      id: fc.oneof(fc.constant('0197331d-02aa-7d5c-a1e3-4f6b8c9d0e12'), fc.string({ maxLength: 40 }).map(encodeURIComponent)),
      project: fc.constantFrom(`${entity}/fuzz`, '', 'a', 'other/p', '%00'),
    });
    return fc
      .record({
        text: mutated,
        params,
        contentType: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...(op.requestMediaTypes.length > 0 ? op.requestMediaTypes : ['application/json'])) },
          { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
        encoding: fc.oneof(
          { weight: 8, arbitrary: fc.constant('identity') },
          { weight: 1, arbitrary: fc.constantFrom('gzip', 'gzip-corrupt', 'br-corrupt', 'zstd') },
        ),
        bom: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        // No body at all, with or without a Content-Type that announces one.
        missing: fc.oneof({ weight: 19, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
        // Bytes bodies (OTLP) sent as protobuf: arbitrary bytes, mostly not a message at all.
        raw: fc.uint8Array({ maxLength: 512 }),
        auth: fc.oneof(
          { weight: 9, arbitrary: fc.constant(authorization(op)) },
          { weight: 1, arbitrary: fc.constantFrom('', 'Basic Zm9v', 'Bearer x') },
        ),
      })
      .map(({ text, params: p, contentType, encoding, bom, auth, raw, missing }): FuzzCase => {
        let bytes: Buffer | undefined = op.bodyMode === 'none' || missing ? undefined : Buffer.from((bom ? '\uFEFF' : '') + text);
        if (op.bodyMode === 'bytes' && contentType === 'application/x-protobuf') bytes = Buffer.from(raw);
        const headers: Record<string, string> = {};
        // Header parameters (OTLP's project_id) from the same projects as the query's.
        for (const param of op.parameters) if (param.in === 'header') headers[param.name] = p.project;
        if (auth) headers.authorization = auth;
        if (missing && contentType && op.bodyMode !== 'none') headers['content-type'] = contentType;
        if (bytes) {
          if (contentType) headers['content-type'] = contentType;
          if (encoding === 'gzip') bytes = gzipSync(bytes);
          else if (encoding !== 'identity') bytes = Buffer.concat([gzipSync(bytes).subarray(0, 10), Buffer.from('corrupt')]);
          if (encoding !== 'identity') headers['content-encoding'] = encoding.replace('-corrupt', '');
        }
        const path =
          op.path.replace(/\{[^}]+\}/g, p.id) +
          (op.parameters.some((x) => x.in === 'query') ? `?project_id=${encodeURIComponent(p.project)}` : '');
        return { operationId: op.operationId, method: op.method.toUpperCase(), path, headers, body: bytes?.toString('base64') };
      });
  });
}
