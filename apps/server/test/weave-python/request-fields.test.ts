// Issue 11's rule, shown field by field: every field of Weave's request models, for each
// operation Weft implements, is either honoured (it changes what the user sees), refused with 422
// naming it, or, for the few a known client sends that change nothing, accepted with the reason
// written down. None is ignored silently. The field lists come from Weave's source
// (weave-request-models.ts), so a field Weave has and a probe lacks fails here; and every model is
// closed: a key Weave does not define is refused too. Both databases; bodies as pydantic sends
// them (no Content-Type).
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { changed, masked, parseAnswer, resolve, type Ctx, type Probe, type Verdict } from './field-probe.ts';
import { CALL_PROBES } from './probes-calls.ts';
import { COST_PROBES } from './probes-costs.ts';
import { TAG_PROBES } from './probes-tags.ts';
import { FEEDBACK_PROBES } from './probes-feedback.ts';
import { OBJECT_PROBES } from './probes-objects.ts';
import { pythonSdk, type PythonSdk } from './wire.ts';
import { WEAVE_REQUEST_MODELS } from './weave-request-models.ts';

const PROBES: Probe[] = [...CALL_PROBES, ...OBJECT_PROBES, ...FEEDBACK_PROBES, ...COST_PROBES, ...TAG_PROBES];

interface Outcome {
  status: number;
  seen: unknown;
}

let projects = 0;

/** Sends the probe's body, changed as asked, in a fresh project; what the user then sees. */
async function run(sdk: PythonSdk, probe: Probe, change: Record<string, unknown> = {}): Promise<Outcome> {
  // Fixed width, so sizes computed over stored text do not differ between projects.
  const P = `acme/fields-${String(++projects).padStart(5, '0')}`;
  const ctx: Ctx = { P, ...((await probe.setup?.(sdk, P)) ?? {}) };
  const resolved = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, resolve(v, ctx)]));
  const body = changed(probe.body(ctx), probe.at ?? [], resolved);
  const path = typeof probe.path === 'string' ? probe.path : probe.path(ctx);
  const res = probe.method === 'PUT' ? await sdk.put(path, body) : await sdk.post(path, body);
  const bytes = await res.bytes();
  const seen = res.status === 200 ? await probe.observe(sdk, ctx, bytes) : parseAnswer(bytes);
  return { status: res.status, seen: masked(seen, P) };
}

/** The 422's locations, each joined with dots. */
function refusedAt(outcome: Outcome): string[] {
  expect(outcome.status, JSON.stringify(outcome.seen)).toBe(422);
  return ((outcome.seen as { detail?: { loc: (string | number)[] }[] }).detail ?? []).map((d) => d.loc.join('.'));
}

async function check(sdk: PythonSdk, probe: Probe, field: string, verdict: Verdict, baseline: Outcome): Promise<void> {
  const where = [...(probe.at ?? []), field].join('.');
  const named = (locs: string[]) =>
    expect(
      locs.some((loc) => loc.endsWith(field)),
      `422 for ${where} names it: ${locs.join(' | ')}`,
    ).toBe(true);
  if ('inPath' in verdict) {
    named(refusedAt(await run(sdk, probe, { [field]: 'in-the-body' })));
  } else if ('required' in verdict) {
    named(refusedAt(await run(sdk, probe, { [field]: undefined })));
  } else if ('honoured' in verdict) {
    const before = verdict.with ? await run(sdk, probe, verdict.with) : baseline;
    const after = await run(sdk, probe, { ...verdict.with, [field]: verdict.honoured });
    expect(after.status, `${where}: honoured, not refused`).not.toBe(422);
    expect(after, `${where} changes what the user sees`).not.toEqual(before);
  } else if ('unchanged' in verdict) {
    expect(verdict.why.length).toBeGreaterThan(10);
    expect(await run(sdk, probe, { [field]: verdict.unchanged }), `${where} changes nothing`).toEqual(baseline);
  } else {
    named(refusedAt(await run(sdk, probe, { ...verdict.with, [field]: verdict.refused })));
    if ('accepts' in verdict) {
      const before = verdict.with ? await run(sdk, probe, verdict.with) : baseline;
      expect(await run(sdk, probe, { ...verdict.with, [field]: verdict.accepts }), `${where}'s default changes nothing`).toEqual(before);
    }
  }
}

it('every Weave model field has exactly one verdict in its probes', () => {
  for (const probe of PROBES) expect(Object.keys(probe.fields).sort(), probe.model).toEqual([...WEAVE_REQUEST_MODELS[probe.model]].sort());
});

/** Envelopes around the models above (Weave's are extra="forbid" too): a stray key in each is refused. */
const ENVELOPES: [path: string, body: (P: string) => Record<string, unknown>, at: (string | number)[]][] = [
  ['/call/start', (P) => ({ start: { project_id: P, op_name: 'o', started_at: '2025-05-01T10:00:00Z', attributes: {}, inputs: {} } }), []],
  ['/call/end', (P) => ({ end: { project_id: P, id: 'c', ended_at: '2025-05-01T10:00:00Z', summary: {} } }), []],
  ['/call/upsert_batch', () => ({ batch: [] }), []],
  [
    '/call/upsert_batch',
    (P) => ({ batch: [{ mode: 'end', req: { end: { project_id: P, id: 'c', ended_at: '2025-05-01T10:00:00Z', summary: {} } } }] }),
    ['batch', 0],
  ],
  [
    '/call/upsert_batch',
    (P) => ({ batch: [{ mode: 'end', req: { end: { project_id: P, id: 'c', ended_at: '2025-05-01T10:00:00Z', summary: {} } } }] }),
    ['batch', 0, 'req'],
  ],
  ['/obj/create', (P) => ({ obj: { project_id: P, object_id: 'o', val: 1 } }), []],
  ['/table/create', (P) => ({ table: { project_id: P, rows: [] } }), []],
  [
    '/feedback/batch/create',
    (P) => ({ batch: [{ id: 'f', project_id: P, weave_ref: `weave:///${P}/call/c`, feedback_type: 't', payload: {} }] }),
    ['batch', 0],
  ],
  [
    '/feedback/replace',
    (P) => ({ feedback_id: 'f', project_id: P, weave_ref: `weave:///${P}/call/c`, feedback_type: 't', payload: {} }),
    [],
  ],
];

describeEachDatabase('Weave request fields: honoured or refused, never ignored', (getServer) => {
  it('refuses a stray key in every envelope, naming it', async () => {
    const sdk = pythonSdk(getServer().url, getServer().aliceKey);
    for (const [path, body, at] of ENVELOPES) {
      const res = await sdk.post(path, changed(body('acme/fields-envelope'), at, { weft_unknown_field: 1 }));
      const locs = refusedAt({ status: res.status, seen: parseAnswer(await res.bytes()) });
      expect(
        locs.some((loc) => loc.endsWith('weft_unknown_field')),
        `${path} at ${at.join('.')}: ${locs.join(' | ')}`,
      ).toBe(true);
    }
  });

  it('refuses a stray form field of a file upload, naming it', async () => {
    const sdk = pythonSdk(getServer().url, getServer().aliceKey);
    const file = { name: 'obj.py', bytes: new TextEncoder().encode('x = 1\n') };
    const res = await sdk.upload('/files/create', { project_id: 'acme/fields-upload', weft_unknown_field: '1' }, file);
    const locs = refusedAt({ status: res.status, seen: res.body });
    expect(
      locs.some((loc) => loc.endsWith('weft_unknown_field')),
      locs.join(' | '),
    ).toBe(true);
  });

  for (const probe of PROBES) {
    const path = typeof probe.path === 'string' ? probe.path : probe.path({ P: '{project}', object_id: '{object_id}', digest: '{digest}' });
    it(`${probe.method ?? 'POST'} ${path}: ${probe.model}${probe.at ? ` at ${probe.at.join('.')}` : ''}`, async () => {
      const sdk = pythonSdk(getServer().url, getServer().aliceKey);
      const baseline = await run(sdk, probe);
      expect(baseline.status, JSON.stringify(baseline.seen)).toBe(200);
      for (const [field, verdict] of Object.entries(probe.fields)) await check(sdk, probe, field, verdict, baseline);
      // The model is closed: a key Weave does not define is refused, naming it.
      const locs = refusedAt(await run(sdk, probe, { weft_unknown_field: 1 }));
      expect(
        locs.some((loc) => loc.endsWith('weft_unknown_field')),
        locs.join(' | '),
      ).toBe(true);
    });
  }
});
