// How request-fields.test.ts shows, field by field, that Weft honours or refuses each field of
// Weave's request models: a probe is one operation, a valid body in a fresh project, and what a
// user sees afterwards (the answer, or a read of what was written); each field of the model gets
// a verdict that the test checks against the running server.
import type { PythonSdk } from './wire.ts';
import type { WeaveModel } from './weave-request-models.ts';

/** Ids and digests a probe's setup made, for bodies and verdict values that name them. */
export type Ctx = { P: string } & Record<string, string>;
/** A value, or a function of the setup's ids that makes it (resolved before sending). */
type Value = unknown;

export type Verdict =
  /** Left out, the request is refused with 422 naming it. */
  | { required: true }
  /** Set to this value (on top of `with`), the status or what a user sees changes, without a 422. */
  | { honoured: Value; with?: Record<string, Value> }
  /** Accepted and changes nothing: a known client sends it (the reason says why it may be dropped). */
  | { unchanged: Value; why: string }
  /**
   * This value (on top of `with`) is refused with 422 naming the field; `accepts` (its default)
   * changes nothing.
   */
  | { refused: Value; accepts?: Value; with?: Record<string, Value> }
  /** Weave's REST binding sends it in the URL (the probe's path names it); in the body it is refused. */
  | { inPath: true };

export interface Probe {
  /** The operation's path, e.g. `/calls/stream_query`, or the path of the setup's ids. */
  path: string | ((ctx: Ctx) => string);
  /** POST when absent. */
  method?: 'PUT';
  model: WeaveModel;
  /** Where the model's object sits in the body (`['filter']`); the body's top level when absent. */
  at?: (string | number)[];
  /** Data the body refers to, made in the fresh project `ctx.P`; returns what it made. */
  setup?(sdk: PythonSdk, P: string): Promise<Record<string, string>>;
  body(ctx: Ctx): Record<string, unknown>;
  /** What a user sees once the request was answered 200: its answer or a read of what it wrote. */
  observe(sdk: PythonSdk, ctx: Ctx, answer: Uint8Array): Promise<unknown>;
  fields: Record<string, Verdict>;
}

export const resolve = (value: Value, ctx: Ctx): unknown => (typeof value === 'function' ? (value as (c: Ctx) => unknown)(ctx) : value);

/** JSON of an answer, of a JSON Lines answer (one value per line), or else its text (file bytes). */
export function parseAnswer(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    try {
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
    } catch {
      return text;
    }
  }
}

/** A probe's `observe` when what the user sees is the answer itself. */
export const answerOf = async (_sdk: PythonSdk, _ctx: Ctx, bytes: Uint8Array): Promise<unknown> => parseAnswer(bytes);

/** POSTs and returns the parsed answer, failing on any status but 200. */
export async function read(sdk: PythonSdk, path: string, body: unknown): Promise<unknown> {
  const res = await sdk.post(path, body);
  const bytes = await res.bytes();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${new TextDecoder().decode(bytes)}`);
  return parseAnswer(bytes);
}

// What differs between two fresh projects and says nothing about a field: the project id itself,
// ids the server made (UUIDv7) and times it stamped (fixtures use 2025; the server's clock is later).
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const NOW = /20(2[6-9]|[3-9]\d)-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)/g;

export function masked(value: unknown, P: string): unknown {
  const text = JSON.stringify(value ?? null)
    .split(P)
    .join('<project>')
    .replace(UUID, '<uuid>')
    .replace(NOW, '<now>');
  return JSON.parse(text) as unknown;
}

/** A copy of `body` with `change` applied to the object at `at` (undefined deletes a key). */
export function changed(body: Record<string, unknown>, at: (string | number)[], change: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(body);
  let target = copy as Record<string | number, unknown>;
  for (const step of at) target = target[step] as Record<string | number, unknown>;
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete target[key];
    else target[key] = value;
  }
  return copy;
}
