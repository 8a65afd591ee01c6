// Issue 11's rule, shown field by field: every field of Weave's request models, for each
// operation Weft implements, is either honoured (it changes what the user sees), refused with 422
// naming it, or, for the few a known client sends that change nothing, accepted with the reason
// written down. None is ignored silently. The field lists come from Weave's source
// (weave-request-models.ts), so a field Weave has and a probe lacks fails here. A key Weave does
// not define is refused too, where Weave's model is extra="forbid"; where it is a plain BaseModel
// (the insert schemas, batch items, table update specs, the upload's form: Weave ignores extra
// keys there) it is ignored and changes nothing, so a Weave SDK sending a field Weft does not
// know yet loses no write. Both databases; bodies as pydantic sends them (no Content-Type).
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { changed, masked, parseAnswer, resolve, type Ctx, type Probe, type Verdict } from './field-probe.ts';
import { CALL_PROBES } from './probes-calls.ts';
import { COST_PROBES } from './probes-costs.ts';
import { TAG_PROBES } from './probes-tags.ts';
import { FEEDBACK_PROBES } from './probes-feedback.ts';
import { OBJECT_PROBES } from './probes-objects.ts';
import { pythonSdk, type PythonSdk } from './wire.ts';
import { WEAVE_LENIENT_MODELS, WEAVE_REQUEST_MODELS } from './weave-request-models.ts';

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

/**
 * Envelopes around the models above: a stray key in each is refused where Weave's envelope is
 * extra="forbid" (the request models), and ignored where it is a plain BaseModel (a batch item:
 * CallBatchStartMode / CallBatchEndMode), so the batch is written as without it.
 */
const ENVELOPES: [path: string, body: (P: string) => Record<string, unknown>, at: (string | number)[], lenient?: 'lenient'][] = [
  ['/call/start', (P) => ({ start: { project_id: P, op_name: 'o', started_at: '2025-05-01T10:00:00Z', attributes: {}, inputs: {} } }), []],
  ['/call/end', (P) => ({ end: { project_id: P, id: 'c', ended_at: '2025-05-01T10:00:00Z', summary: {} } }), []],
  ['/call/upsert_batch', () => ({ batch: [] }), []],
  [
    '/call/upsert_batch',
    (P) => ({ batch: [{ mode: 'end', req: { end: { project_id: P, id: 'c', ended_at: '2025-05-01T10:00:00Z', summary: {} } } }] }),
    ['batch', 0],
    'lenient',
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
  it('refuses a stray key in every strict envelope, naming it; ignores it in a lenient one', async () => {
    const sdk = pythonSdk(getServer().url, getServer().aliceKey);
    for (const [path, body, at, lenient] of ENVELOPES) {
      const res = await sdk.post(path, changed(body('acme/fields-envelope'), at, { weft_unknown_field: 1 }));
      if (lenient) {
        const plain = await sdk.post(path, body('acme/fields-envelope'));
        expect([res.status, parseAnswer(await res.bytes())], `${path} at ${at.join('.')}`).toEqual([200, parseAnswer(await plain.bytes())]);
        continue;
      }
      const locs = refusedAt({ status: res.status, seen: parseAnswer(await res.bytes()) });
      expect(
        locs.some((loc) => loc.endsWith('weft_unknown_field')),
        `${path} at ${at.join('.')}: ${locs.join(' | ')}`,
      ).toBe(true);
    }
  });

  it("ignores a stray form field of a file upload, as Weave's route (FastAPI form parameters) does", async () => {
    const sdk = pythonSdk(getServer().url, getServer().aliceKey);
    const file = { name: 'obj.py', bytes: new TextEncoder().encode('x = 1\n') };
    const plain = await sdk.upload('/files/create', { project_id: 'acme/fields-upload' }, file);
    const stray = await sdk.upload('/files/create', { project_id: 'acme/fields-upload', weft_unknown_field: '1' }, file);
    expect(plain.status).toBe(200);
    expect(stray).toEqual(plain);
    // A field it reads is still checked: a wrong expected_digest is refused.
    const wrong = await sdk.upload(
      '/files/create',
      { project_id: 'acme/fields-upload', weft_unknown_field: '1', expected_digest: 'x' },
      file,
    );
    expect(wrong.status).toBe(409);
  });

  it("ignores stray keys in table updates (Weave's TableAppendSpec and its payload are plain models), reading the rest as before", async () => {
    const sdk = pythonSdk(getServer().url, getServer().aliceKey);
    const P = 'acme/fields-table-update';
    const made = (await (await sdk.post('/table/create', { table: { project_id: P, rows: [{ a: 1 }] } })).json()) as { digest: string };
    const update = (updates: unknown[]) => sdk.post('/table/update', { project_id: P, base_digest: made.digest, updates });
    const plain = await update([{ append: { row: { a: 2 } } }, { insert: { index: 0, row: { a: 0 } } }, { pop: { index: 1 } }]);
    const stray = await update([
      { append: { row: { a: 2 }, weft_unknown_field: 1 }, weft_unknown_field: 1 },
      { insert: { index: 0, row: { a: 0 }, weft_unknown_field: 1 }, weft_unknown_field: 1 },
      { pop: { index: 1, weft_unknown_field: 1 }, weft_unknown_field: 1 },
    ]);
    expect(plain.status).toBe(200);
    expect([stray.status, await stray.json()]).toEqual([200, await plain.json()]);
    // The fields it reads keep their checks: a negative index is refused, naming it.
    const bad = await update([{ pop: { index: -1, weft_unknown_field: 1 } }]);
    const locs = refusedAt({ status: bad.status, seen: parseAnswer(await bad.bytes()) });
    expect(
      locs.some((loc) => loc.endsWith('pop.index')),
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
      const stray = await run(sdk, probe, { weft_unknown_field: 1 });
      if (WEAVE_LENIENT_MODELS.has(probe.model)) {
        // Weave's model is a plain BaseModel: a key it does not define is ignored, and changes nothing.
        expect(stray, `${probe.model} ignores a key it does not define`).toEqual(baseline);
        return;
      }
      // The model is closed (extra="forbid" in Weave): a key Weave does not define is refused, naming it.
      const locs = refusedAt(stray);
      expect(
        locs.some((loc) => loc.endsWith('weft_unknown_field')),
        locs.join(' | '),
      ).toBe(true);
    });
  }
});
