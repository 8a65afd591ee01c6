// The built @weft/core maps large OTLP exports on its own thread, from map-worker.js beside it (the
// tests run TypeScript, where the thread's entry is bundled on the fly instead; a built package
// that failed to start its thread would still map, only on the main thread: this test is what
// would notice). Plain node, no loader, as `pnpm start` runs it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';

const coreDist = fileURLToPath(new URL('../../../packages/core/dist/index.js', import.meta.url));

const SCRIPT = `
const core = await import(process.argv[1]);
const span = (i) => ({
  traceId: Buffer.alloc(16, 7), spanId: Buffer.from((i + 1).toString(16).padStart(16, '0'), 'hex'), traceState: '',
  parentSpanId: Buffer.alloc(0), flags: 0, name: 'step ' + i, kind: 1,
  startTimeUnixNano: String(1749000000000000000n + BigInt(i)), endTimeUnixNano: String(1749000000000000001n + BigInt(i)),
  attributes: [{ key: 'gen_ai.prompt', value: { stringValue: 'q' + i } }], droppedAttributesCount: 0,
  events: [], droppedEventsCount: 0, links: [], droppedLinksCount: 0, status: undefined,
});
const spans = Array.from({ length: 2000 }, (_, i) => span(i));
const bytes = core.ExportTraceServiceRequest.encode({ resourceSpans: [{ resource: undefined, schemaUrl: '',
  scopeSpans: [{ scope: undefined, schemaUrl: '', spans }] }] }).finish();
const collect = async (chunks) => { const out = []; for await (const c of chunks) out.push(c); return out; };
const inPlace = await collect(core.otlpCallChunks(await core.readOtlpProtobuf(bytes), ['acme/p'], new core.SpanTally(), 100));
const offMain = await collect(core.otlpCallChunksOffMain(await core.readOtlpProtobuf(bytes), ['acme/p'], new core.SpanTally(), 100));
console.log(JSON.stringify({ counts: core.mapThreadCounts(), same: JSON.stringify(offMain) === JSON.stringify(inPlace), calls: offMain.flat().length }));
`;

it(
  'the built package maps a large OTLP export on its mapping thread, with the same calls',
  () =>
    withBuildLock(async () => {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT, coreDist], { encoding: 'utf8', timeout: 60_000 });
      const { counts, same, calls } = JSON.parse(out) as { counts: { starts: number; stops: number }; same: boolean; calls: number };
      expect(calls).toBe(2000);
      expect(same).toBe(true);
      // The thread started (map-worker.js found and loaded), did the work, and is still there.
      expect(counts).toEqual({ starts: 1, stops: 0 });
    }),
  120_000,
);
