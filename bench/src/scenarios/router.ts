// Scenario 12: the inference router. Every figure compares Weft's router with the same upstream
// called directly, side by side in one run: added latency and throughput at a 50 ms upstream
// (32 connections), time to the first chunk and the gaps between chunks of streams, 1,000 open
// streams at once (Weft's peak RSS), and what recording calls costs at a 0 ms upstream (the
// router with recording against the router with `record_calls: false`). A bare node:http + undici
// proxy (servers/bare-proxy.ts) runs in the same rounds: what any Node proxy costs on this
// machine, so Weft's share of the gap to direct is measured in every run.
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { closedLoop, percentile, type LoopFigure } from '../router/closed-loop.ts';
import { timedStream, type StreamTiming } from '../router/stream-timing.ts';
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { spawnServer, type ServerProcess } from '../servers/spawn.ts';
import { startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const CONNECTIONS = 32;
const OPEN_STREAMS = 1000;
const MODEL = 'bench/router-model';

const routerFile = (dir: string, name: string, upstream: string, recordCalls: boolean): string => {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      ...(recordCalls ? [] : ['record_calls: false']),
      'providers:',
      '  bench:',
      `    base_url: ${upstream}/v1`,
      'models:',
      `  - id: ${MODEL}`,
      '    name: Bench model',
      '    context_length: 8192',
      '    endpoints:',
      '      - provider: bench',
      '        model: upstream-model',
      "        pricing: { prompt: '0.00000022', completion: '0.00000088' }",
      '',
    ].join('\n'),
  );
  return file;
};

const chatBody = (stream: boolean) =>
  JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello.' }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

async function streams(url: string, headers: Record<string, string>, count: number): Promise<StreamTiming[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const out: StreamTiming[] = [];
    for (let i = 0; i < count; i++) out.push(await timedStream(agent, new URL(url), headers, chatBody(true)));
    return out;
  } finally {
    agent.destroy();
  }
}

export async function routerScenario(ctx: RunContext): Promise<ScenarioResult> {
  const servers: ServerProcess[] = [];
  const start = async (kind: 'weft' | 'fake-llm' | 'proxy', env: Record<string, string>) => {
    const s = kind === 'weft' ? await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds, env) : await spawnServer(kind, env);
    servers.push(s);
    return s;
  };
  const stop = async (s: ServerProcess) => {
    await s.stop();
    servers.splice(servers.indexOf(s), 1);
  };
  const headers = ctx.creds.bearerHeaders;
  const direct = { 'content-type': 'application/json' };
  const loop = { connections: CONNECTIONS, seconds: ctx.seconds, warmupSeconds: ctx.quick ? 1 : 2 };
  try {
    // 1. Non-streamed at a 50 ms upstream: added latency and throughput.
    const slow = await start('fake-llm', { BENCH_UPSTREAM_DELAY_MS: '50' });
    const weft = await start('weft', { ROUTER_CONFIG: routerFile(ctx.runDir, 'slow', slow.url, true) });
    const proxy = await start('proxy', { BENCH_UPSTREAM_URL: `${slow.url}/v1`, BENCH_UPSTREAM_MODEL: 'upstream-model' });
    const via = { url: `${weft.url}/inference/router/gateway/chat/completions`, headers, body: chatBody(false) };
    const straight = { url: `${slow.url}/v1/chat/completions`, headers: direct, body: chatBody(false) };
    const bare = { url: `${proxy.url}/chat/completions`, headers: direct, body: chatBody(false) };
    const rounds: { direct: LoopFigure[]; proxy: LoopFigure[]; weft: LoopFigure[] } = { direct: [], proxy: [], weft: [] };
    for (let round = 0; round < 2; round++) {
      say(`  router round ${round + 1}: direct, through a bare proxy, through Weft (50 ms upstream)`);
      rounds.direct.push(await closedLoop(straight, loop));
      rounds.proxy.push(await closedLoop(bare, loop));
      rounds.weft.push(await closedLoop(via, loop));
    }
    const mean = (fs: LoopFigure[], k: keyof LoopFigure) => fs.reduce((s, f) => s + f[k], 0) / fs.length;
    const addedP50 = mean(rounds.weft, 'p50Ms') - mean(rounds.direct, 'p50Ms');
    const addedP99 = mean(rounds.weft, 'p99Ms') - mean(rounds.direct, 'p99Ms');
    const throughput = mean(rounds.weft, 'rate') / mean(rounds.direct, 'rate');
    const proxyP50 = mean(rounds.proxy, 'p50Ms') - mean(rounds.direct, 'p50Ms');
    const proxyP99 = mean(rounds.proxy, 'p99Ms') - mean(rounds.direct, 'p99Ms');

    // 2. Streams: time to the first chunk and the gaps between chunks.
    say('  router: streams, direct and through Weft');
    const count = ctx.quick ? 20 : 100;
    const sDirect = await streams(`${slow.url}/v1/chat/completions`, direct, count);
    const sWeft = await streams(via.url, headers, count);
    const sProxy = await streams(bare.url, direct, count);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    // The upstream waits 50 ms before its first chunk: both sides pay it; the difference is Weft's.
    const ttft = (ss: StreamTiming[]) => percentile(sorted(ss.map((s) => s.ttftMs)), 50);
    const addedTtft = ttft(sWeft) - ttft(sDirect);
    const proxyTtft = ttft(sProxy) - ttft(sDirect);
    const gapDirect = percentile(sorted(sDirect.flatMap((s) => s.gapsMs)), 50);
    const gapWeft = percentile(sorted(sWeft.flatMap((s) => s.gapsMs)), 50);
    const tinyGaps = (ss: StreamTiming[]) => {
      const gaps = ss.flatMap((s) => s.gapsMs.slice(0, -2)); // the content chunks' gaps, not the finish/usage ones
      return gaps.filter((g) => g < 2).length / Math.max(1, gaps.length);
    };

    // 3. 1,000 streams open at once: Weft's peak RSS.
    await stop(proxy);
    await stop(weft);
    await stop(slow);
    const holding = await start('fake-llm', { BENCH_STREAM_CHUNKS: '10', BENCH_STREAM_GAP_MS: '300' });
    const weftOpen = await start('weft', { ROUTER_CONFIG: routerFile(ctx.runDir, 'open', holding.url, true) });
    say(`  router: ${OPEN_STREAMS} streams open at once`);
    const peak = weftOpen.trackPeakRss();
    const agent = new Agent({ keepAlive: false, maxSockets: OPEN_STREAMS });
    const opened = await Promise.all(
      Array.from({ length: OPEN_STREAMS }, () =>
        timedStream(agent, new URL(`${weftOpen.url}/inference/router/gateway/chat/completions`), headers, chatBody(true)),
      ),
    );
    agent.destroy();
    const peakMb = peak();
    const allComplete = opened.every((s) => s.gapsMs.length >= 10);

    // 4. Recording's cost at a 0 ms upstream.
    await stop(weftOpen);
    await stop(holding);
    const fast = await start('fake-llm', {});
    const recording = await start('weft', { ROUTER_CONFIG: routerFile(ctx.runDir, 'rec', fast.url, true) });
    const silent = await start('weft', { ROUTER_CONFIG: routerFile(ctx.runDir, 'norec', fast.url, false) });
    const rec: LoopFigure[] = [];
    const norec: LoopFigure[] = [];
    const measureRec = async () =>
      rec.push(await closedLoop({ ...via, url: `${recording.url}/inference/router/gateway/chat/completions` }, loop));
    const measureNorec = async () =>
      norec.push(await closedLoop({ ...via, url: `${silent.url}/inference/router/gateway/chat/completions` }, loop));
    for (let round = 0; round < 2; round++) {
      // Each server first in one round: neither carries the other's share of the machine's drift.
      say(`  router round ${round + 1}: recording ${round === 0 ? 'on, then off' : 'off, then on'} (0 ms upstream)`);
      if (round === 0) await measureRec().then(measureNorec);
      else await measureNorec().then(measureRec);
    }
    const recordingRatio = mean(rec, 'rate') / mean(norec, 'rate');

    return {
      id: 'router',
      title: '12. Inference router vs the same upstream called directly',
      lines: [
        {
          measure: 'added latency p50, 32 connections, 50 ms upstream',
          value: fmt.ms(addedP50),
          baseline: `direct p50: ${fmt.ms(mean(rounds.direct, 'p50Ms'))}; bare proxy adds ${fmt.ms(proxyP50)}`,
          ratio: null,
          target: { op: '<=', value: 1 },
          absolute: { value: addedP50, unit: 'ms' },
        },
        {
          measure: 'added latency p99, 32 connections, 50 ms upstream',
          value: fmt.ms(addedP99),
          baseline: `direct p99: ${fmt.ms(mean(rounds.direct, 'p99Ms'))}; bare proxy adds ${fmt.ms(proxyP99)}`,
          ratio: null,
          target: { op: '<=', value: 5 },
          absolute: { value: addedP99, unit: 'ms' },
        },
        {
          measure: 'throughput through Weft vs direct, 50 ms upstream',
          value: fmt.rate(mean(rounds.weft, 'rate')),
          baseline: `direct: ${fmt.rate(mean(rounds.direct, 'rate'))}`,
          ratio: throughput,
          target: { op: '>=', value: 0.95 },
        },
        {
          measure: 'throughput through a bare node:http + undici proxy vs direct (the floor)',
          value: fmt.rate(mean(rounds.proxy, 'rate')),
          baseline: `direct: ${fmt.rate(mean(rounds.direct, 'rate'))}`,
          ratio: mean(rounds.proxy, 'rate') / mean(rounds.direct, 'rate'),
        },
        {
          measure: 'throughput through Weft vs the bare proxy',
          value: fmt.rate(mean(rounds.weft, 'rate')),
          baseline: `bare proxy: ${fmt.rate(mean(rounds.proxy, 'rate'))}`,
          ratio: mean(rounds.weft, 'rate') / mean(rounds.proxy, 'rate'),
        },
        {
          measure: 'added time to first chunk p50 (streams)',
          value: fmt.ms(addedTtft),
          baseline: `direct p50: ${fmt.ms(ttft(sDirect))}; bare proxy adds ${fmt.ms(proxyTtft)}`,
          ratio: null,
          target: { op: '<=', value: 2 },
          absolute: { value: addedTtft, unit: 'ms' },
        },
        {
          measure: 'gap between chunks p50, through Weft vs direct',
          value: fmt.ms(gapWeft),
          baseline: `direct: ${fmt.ms(gapDirect)}`,
          ratio: gapWeft / gapDirect,
        },
        {
          measure: `peak RSS with ${OPEN_STREAMS} streams open`,
          value: fmt.mb(peakMb),
          baseline: '',
          ratio: null,
          target: { op: '<=', value: 300 },
          absolute: { value: peakMb, unit: 'MB' },
        },
        {
          measure: 'throughput with recording vs without, 0 ms upstream',
          value: fmt.rate(mean(rec, 'rate')),
          baseline: `record_calls: false: ${fmt.rate(mean(norec, 'rate'))}`,
          ratio: recordingRatio,
          target: { op: '>=', value: 0.9 },
        },
      ],
      notes: [
        `The upstream is a bench process answering a constant (bench/src/servers/fake-llm.mjs); the client is a closed loop timing each request with performance.now(), the same code for both sides. Streams: ${count} in a row, 10 chunks 10 ms apart after a 50 ms wait.`,
        `Content chunks arriving under 2 ms apart (a sign of batching): direct ${(tinyGaps(sDirect) * 100).toFixed(0)}%, through Weft ${(tinyGaps(sWeft) * 100).toFixed(0)}%. ${OPEN_STREAMS} streams (10 chunks 300 ms apart) ${allComplete ? 'all completed' : 'did NOT all complete'}.`,
      ],
      raw: { connections: CONNECTIONS, rounds, rec, norec, addedTtft, proxyTtft, gapDirect, gapWeft, peakMb },
    };
  } finally {
    for (const s of [...servers].reverse()) await s.stop();
  }
}
