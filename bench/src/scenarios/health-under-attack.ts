// Scenario 7: GET /health latency while hostile clients run, against the quiet server in the same
// run. The hostile mix is what stalled the server before issue 10: a 720 kB batch of 20,000 invalid
// items, nesting past the limit, numbers beyond range, a gzip bomb, and connections that never
// send a byte; and heavy requests that are valid: a 4 MB batch of 20,000 calls and a whole
// 50,000-row table read without a limit. Target: p99 of /health ≤ 50 ms while it runs (no request
// holds the event loop, nor SQLite's reads).
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { say } from '../progress.ts';
import type { ScenarioResult } from '../report/results.ts';
import { PROJECTS } from '../seed/spec.ts';
import { ENTITY, startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const LIMIT_MS = 50;

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

async function healthLatencies(url: string, until: number): Promise<number[]> {
  const samples: number[] = [];
  while (Date.now() < until) {
    const t0 = performance.now();
    await (await fetch(`${url}/health`)).arrayBuffer();
    samples.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return samples;
}

export async function healthUnderAttackScenario(ctx: RunContext): Promise<ScenarioResult> {
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  const silent: Socket[] = [];
  try {
    const project_id = PROJECTS.calls;
    const heavy = `${ENTITY}/attack`;
    say('  seeding a 50,000-row table');
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      i,
      input: `question ${i} `.repeat(6),
      expected: { answer: i % 7, tags: ['a', 'b'] },
    }));
    const created = await fetch(`${weft.url}/table/create`, {
      method: 'POST',
      headers: ctx.creds.headers,
      body: JSON.stringify({ table: { project_id: heavy, rows } }),
    });
    if (!created.ok) throw new Error(`table/create answered ${created.status}`);
    const { digest } = (await created.json()) as { digest: string };
    const started_at = new Date().toISOString();
    const validBatch = Array.from({ length: 20_000 }, (_, i) => ({
      mode: 'start',
      req: {
        start: {
          project_id: heavy,
          id: `attack-${i}`,
          trace_id: `attack-${i}`,
          op_name: 'op',
          started_at,
          attributes: {},
          inputs: { i, text: 'lorem ipsum '.repeat(8) },
        },
      },
    }));
    say('  /health, quiet');
    const quiet = await healthLatencies(weft.url, Date.now() + ctx.seconds * 1000);
    const hostile: Array<{ path: string; body: BodyInit; headers?: Record<string, string>; valid?: boolean }> = [
      {
        path: '/call/upsert_batch',
        body: JSON.stringify({ batch: Array.from({ length: 20_000 }, () => ({ mode: 'start', req: { start: {} } })) }),
      },
      {
        path: '/obj/create',
        body: `{"obj":{"project_id":"${project_id}","object_id":"deep","val":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
      },
      { path: '/obj/create', body: `{"obj":{"project_id":"${project_id}","object_id":"big","val":1e400}}` },
      {
        path: '/objs/query',
        body: new Blob([new Uint8Array(gzipSync(`{"project_id":"${project_id}","pad":"${' '.repeat(64 * 1024 * 1024)}"}`))]),
        headers: { 'content-encoding': 'gzip' },
      },
      { path: '/call/upsert_batch', body: JSON.stringify({ batch: validBatch }), valid: true },
      { path: '/table/query', body: JSON.stringify({ project_id: heavy, digest }), valid: true },
    ];
    const ATTACKERS = hostile.length;
    const until = Date.now() + ctx.seconds * 1000;
    let sent = 0;
    const counts = hostile.map(() => 0);
    // Each attacker sends one kind in a loop, so a slow kind (the bomb) never paces the others.
    // Only the status is checked: a valid request answered with an error would measure nothing.
    const attack = async (k: number) => {
      const h = hostile[k % hostile.length]!;
      while (Date.now() < until) {
        const res = await fetch(`${weft.url}${h.path}`, { method: 'POST', headers: { ...ctx.creds.headers, ...h.headers }, body: h.body });
        await res.arrayBuffer();
        if (h.valid && !res.ok) throw new Error(`${h.path} answered ${res.status} under attack`);
        sent++;
        counts[k % hostile.length]!++;
      }
    };
    const { hostname, port } = new URL(weft.url);
    for (let i = 0; i < 50; i++) silent.push(connect(Number(port), hostname).on('error', () => undefined));
    say('  /health, under attack');
    const [loaded] = await Promise.all([healthLatencies(weft.url, until), ...Array.from({ length: ATTACKERS }, (_, k) => attack(k))]);
    const value = p99(loaded);
    const kinds = hostile.map((h, i) => `${counts[i]} ${h.path}`).join(', ');
    return {
      id: 'health-under-attack',
      title: `7. GET /health while ${ATTACKERS} hostile clients run`,
      lines: [
        {
          measure: 'p99 latency of /health under attack',
          value: `${value.toFixed(1)} ms (${loaded.length} probes)`,
          baseline: `quiet p99: ${p99(quiet).toFixed(1)} ms`,
          ratio: null,
          target: { op: '<=', value: LIMIT_MS },
          absolute: { value, unit: 'ms' },
        },
      ],
      notes: [
        `${sent} hostile requests in ${ctx.seconds} s (${kinds}) from ${ATTACKERS} clients, each sending one kind in a loop: a 720 kB batch of 20,000 invalid items, nesting 5,000 deep, 1e400, a 64 MB gzip bomb (64 kB sent), a valid 4 MB batch of 20,000 calls, a 50,000-row table read without a limit (13 MB answer); and 50 connections that send nothing.`,
      ],
      raw: { quiet: quiet.length, loaded: loaded.length, sent },
    };
  } finally {
    for (const s of silent) s.destroy();
    await weft.stop();
  }
}
