// Scenario 9: OpenTelemetry ingest (POST /otel/v1/traces) of protobuf exports of 1,000 GenAI
// spans, in spans/s, against decoding the same bodies alone (decodeOtlpProtobuf, the generated
// codecs) in the bench process; and the server's peak RSS while it stores one 32 MB export.
// Each body is sent once (every span a new call), by 2 clients, answered after commit. And the
// database's floor for the same rows (otel-floor.ts).
import { decodeOtlpProtobuf, otlpCallChunks, readOtlpProtobuf, SpanTally } from '@weft/core';
import { otlpExportBody, otlpExportOfSize } from '../fixtures/otlp-payload.ts';
import { measureLoop } from '../load.ts';
import { phase, say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { ENTITY, startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';
import { otelInsertFloor } from './otel-floor.ts';

const SPANS_PER_BODY = 1000;
const BIG_MB = 32;
const CLIENTS = 2;

export async function otelIngestScenario(ctx: RunContext): Promise<ScenarioResult> {
  const count = ctx.quick ? 6 : 60;
  const bodies = await phase(`building ${count} OTLP exports of ${SPANS_PER_BODY} GenAI spans`, () =>
    Promise.resolve(Array.from({ length: count }, () => otlpExportBody(SPANS_PER_BODY))),
  );
  const bigMb = ctx.quick ? 4 : BIG_MB;
  const big = await phase(`building a ${bigMb} MB OTLP export`, () => Promise.resolve(otlpExportOfSize(bigMb)));
  const bigSpans = (await decodeOtlpProtobuf(big)).resourceSpans[0]!.scopeSpans[0]!.spans.length;
  const kb = bodies.reduce((n, b) => n + b.length, 0) / bodies.length / 1024;
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    const headers = {
      authorization: ctx.creds.headers.authorization!,
      'content-type': 'application/x-protobuf',
      project_id: `${ENTITY}/otel-${ctx.dialect}-${Date.now()}`,
    };
    const send = async (body: Buffer) => {
      const res = await fetch(`${weft.url}/otel/v1/traces`, { method: 'POST', headers, body: new Uint8Array(body) });
      const answer = Buffer.from(await res.arrayBuffer());
      // An empty ExportTraceServiceResponse: no span was rejected.
      if (res.status !== 200 || answer.length !== 0)
        throw new Error(`otel/v1/traces answered ${res.status}: ${answer.toString().slice(0, 300)}`);
    };
    // Warm-up (JIT, statement cache) with bodies that are not measured.
    for (let i = 0; i < 2; i++) await send(otlpExportBody(SPANS_PER_BODY));

    say(`  otel: ${count} exports of ${SPANS_PER_BODY} spans (${kb.toFixed(0)} kB), ${CLIENTS} clients`);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < bodies.length) await send(bodies[next++]!);
      }),
    );
    const ingestMs = performance.now() - started;
    const ingestRate = (count * SPANS_PER_BODY * 1000) / ingestMs;

    say('  otel: decoding the same bodies in the bench process');
    let i = 0;
    const decode = await measureLoop(() => decodeOtlpProtobuf(bodies[i++ % bodies.length]!), {
      minMs: 3000,
      minCount: count,
      maxCount: 10 * count,
    });
    const decodeRate = decode.rate * SPANS_PER_BODY;
    // Where the time goes: the server's own decoding and mapping, without HTTP and database.
    const map = await measureLoop(
      async () => {
        const request = await readOtlpProtobuf(bodies[i++ % bodies.length]!);
        for await (const chunk of otlpCallChunks(request, [headers.project_id], new SpanTally(), 100)) void chunk;
      },
      { minMs: 3000, minCount: count, maxCount: 10 * count },
    );
    const mapRate = map.rate * SPANS_PER_BODY;
    say('  otel: the same statements on a plain driver connection (the database floor)');
    const floorRate = await otelInsertFloor(ctx.databaseUrl, bodies, SPANS_PER_BODY);

    say(`  otel: one ${(big.length / 2 ** 20).toFixed(1)} MB export (${bigSpans.toLocaleString('en-US')} spans)`);
    // What the server holds before the export (heap left by the exports above), so the peak
    // below reads as that plus what the 32 MB export itself costs.
    const beforeRssMb = weft.rssMb();
    const peak = weft.trackPeakRss();
    const bigMs = await (async () => {
      const t = performance.now();
      await send(big);
      return performance.now() - t;
    })();
    const peakRssMb = peak();
    return {
      id: 'otel-ingest',
      title: `9. POST /otel/v1/traces, protobuf exports of ${SPANS_PER_BODY.toLocaleString('en-US')} GenAI spans`,
      lines: [
        {
          measure: 'Weft ingest vs decoding the same bodies alone',
          value: fmt.rate(ingestRate, 'spans/s'),
          baseline: `decode: ${fmt.rate(decodeRate, 'spans/s')}`,
          ratio: ingestRate / decodeRate,
          target: { op: '>=', value: 0.3 },
        },
        {
          // Issue 31 takes Weft within 1.2× of this floor (a ratio of 0.83 or more) in place of
          // the 0.3× of decoding, which no database write keeps up with.
          measure: 'Weft ingest vs the same statements on a plain connection (the database floor)',
          value: fmt.rate(ingestRate, 'spans/s'),
          baseline: `floor: ${fmt.rate(floorRate, 'spans/s')}`,
          ratio: ingestRate / floorRate,
        },
        {
          measure: 'decoding and mapping to calls alone (bench process) vs decoding alone',
          value: fmt.rate(mapRate, 'spans/s'),
          baseline: `decode: ${fmt.rate(decodeRate, 'spans/s')}`,
          ratio: mapRate / decodeRate,
        },
        {
          measure: `peak RSS storing one ${Math.round(big.length / 2 ** 20)} MB export`,
          value: fmt.mb(peakRssMb),
          baseline: `before the export: ${fmt.mb(beforeRssMb)}`,
          ratio: null,
          target: { op: '<=', value: 300 },
          absolute: { value: peakRssMb, unit: 'MB' },
        },
      ],
      notes: [
        `${count} bodies of ${kb.toFixed(0)} kB (traces of an agent span, chat spans with GenAI messages and usage, tool spans), each sent once by one of ${CLIENTS} clients and answered after its transaction committed; decodeOtlpProtobuf runs in the bench process on the same bodies. The ${Math.round(big.length / 2 ** 20)} MB export (${bigSpans.toLocaleString('en-US')} spans) took ${fmt.ms(bigMs)}; its peak is VmHWM of the server process.`,
      ],
      raw: {
        count,
        kb,
        ingestMs,
        ingestRate,
        decode,
        decodeRate,
        map,
        mapRate,
        floorRate,
        bigBytes: big.length,
        bigSpans,
        bigMs,
        beforeRssMb,
        peakRssMb,
      },
    };
  } finally {
    await weft.stop();
  }
}
