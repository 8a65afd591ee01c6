// Scenario 4: trajectory /log ingest of ~64 MB ART bodies (8 groups of 8 twenty-message
// conversations with logprobs), in MB/s of request body, against JSON.parse of such a body in
// the bench process. The server runs alone in its child process, so its peak RSS is its own.
import { nativeJson } from '@weft/core';
import { artLogBody } from '../fixtures/art-payload.ts';
import { checkOnce, measureHttp, measureLoop } from '../load.ts';
import { phase, say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { ENTITY, startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const BODY_MB = 64;

export async function logIngestScenario(ctx: RunContext): Promise<{ result: ScenarioResult; peakRssMb: number }> {
  const requests = ctx.quick ? 2 : 4;
  // A new body for every request (salted trajectories): the same body again would find its rows
  // already stored, which spares PostgreSQL the compression and writes a new log pays for.
  const bodies = await phase(`building ${requests + 1} ${BODY_MB} MB ART log bodies`, () =>
    Promise.resolve(Array.from({ length: requests + 1 }, (_, salt) => artLogBody(BODY_MB, salt))),
  );
  const body = bodies[0]!;
  const mb = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / bodies.length / (1024 * 1024);
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    const model = JSON.parse(
      await checkOnce({
        url: `${weft.url}/v1/preview/models`,
        headers: ctx.creds.bearerHeaders,
        body: JSON.stringify({
          entity: ENTITY,
          project: 'art',
          name: 'email-agent',
          base_model: 'OpenPipe/Qwen3-14B-Instruct',
          return_existing: true,
        }),
      }),
    ) as { id: string };
    const url = `${weft.url}/v1/preview/models/${model.id}/log`;
    const headers = ctx.creds.bearerHeaders;
    const peak = weft.trackPeakRss();
    // One request first, unmeasured (its memory counts): the log path's first run compiles it and
    // starts the digest thread, which no later request pays.
    say(`  log: 1 warm-up request, then ${requests} requests of ${mb.toFixed(1)} MB`);
    await measureHttp({ url, headers, body }, { connections: 1, amount: 1 });
    const ingest = await measureHttp({ url, headers, body, bodies: bodies.slice(1) }, { connections: 1, amount: requests });
    const peakRssMb = peak();
    say('  log: JSON.parse of the first body');
    const parse = await measureLoop(() => JSON.parse(body), { minMs: 3000, minCount: requests, maxCount: 50 });
    const ingestMbps = (mb * 1000) / ingest.meanMs;
    const parseMbps = (mb * 1000) / parse.meanMs;
    return {
      result: {
        id: 'log-ingest',
        title: `4. Trajectory log ingest, ${mb.toFixed(0)} MB ART bodies`,
        lines: [
          {
            measure: 'Weft ingest vs JSON.parse of such a body',
            value: fmt.mbps(ingestMbps),
            baseline: `JSON.parse: ${fmt.mbps(parseMbps)}`,
            ratio: ingestMbps / parseMbps,
            target: { op: '>=', value: 0.25 },
          },
        ],
        notes: [
          `${requests} sequential requests (one client) after one unmeasured warm-up request, each a body of new trajectories; each answered only after its transaction committed. Peak RSS covers all of them. JSON.parse runs in the bench process on the first body.`,
          // The log's digests, SQLite's key order and the container scan are native when built.
          nativeJson
            ? 'The native JSON addon (packages/json-native) is built and in use.'
            : 'WITHOUT the native JSON addon (packages/json-native did not build): every step in JavaScript, several times slower.',
        ],
        raw: { bodyMb: mb, requests, ingest, parse, ingestMbps, parseMbps },
      },
      peakRssMb,
    };
  } finally {
    await weft.stop();
  }
}
