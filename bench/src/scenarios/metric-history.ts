// Scenario 8: GET /v1/preview/models/{id}/metrics over a run of 1,000 steps (a checkpoint and a
// val log at each), for a model whose logs hold 32 trajectories and one whose logs hold 320. The
// history is combined from sums stored with each log, so it must cost the same whichever the
// trajectories: target ≤ 1.5×. Mean latency of one client in a loop, alternating the two models.
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { ENTITY, startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const PROJECT = 'history';

async function seedRun(url: string, headers: Record<string, string>, name: string, steps: number, perGroup: number): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const { id } = (await post('/v1/preview/models', { entity: ENTITY, project: PROJECT, name, base_model: 'b', return_existing: true })) as {
    id: string;
  };
  const groups = Array.from({ length: 8 }, (_, g) => ({
    trajectories: Array.from({ length: perGroup }, (_, t) => ({
      reward: ((g + t) % 5) / 4,
      metrics: { turns: t % 7, correct: t % 2 === 0 },
    })),
    metrics: { difficulty: g },
  }));
  for (let step = 0; step < steps; step++) {
    if (step > 0) await post(`/v1/preview/models/${id}/checkpoints`, { step });
    await post(`/v1/preview/models/${id}/log`, { split: 'val', trajectory_groups: groups });
  }
  return id;
}

async function meanLatencyMs(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<{ meanMs: number; count: number; points: number }> {
  let points = 0;
  const read = async () => {
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data: unknown[] };
    if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
    points = body.data.length;
  };
  await read(); // warm
  const until = performance.now() + seconds * 1000;
  let count = 0;
  const start = performance.now();
  while (performance.now() < until) {
    await read();
    count++;
  }
  return { meanMs: (performance.now() - start) / count, count, points };
}

export async function metricHistoryScenario(ctx: RunContext): Promise<ScenarioResult> {
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    const steps = ctx.quick ? 50 : 1000;
    const headers = ctx.creds.bearerHeaders;
    say(`  seeding two runs of ${steps} steps (32 and 320 trajectories a log)`);
    const suffix = Date.now().toString(36);
    const small = await seedRun(weft.url, headers, `small-${suffix}`, steps, 4);
    const large = await seedRun(weft.url, headers, `large-${suffix}`, steps, 40);
    const figures: Record<'small' | 'large', Array<{ meanMs: number; count: number; points: number }>> = { small: [], large: [] };
    for (let round = 0; round < 2; round++) {
      for (const [name, id] of [
        ['large', large],
        ['small', small],
      ] as const) {
        say(`  metric history round ${round + 1}: ${name} logs`);
        figures[name].push(await meanLatencyMs(`${weft.url}/v1/preview/models/${id}/metrics`, headers, ctx.seconds / 2));
      }
    }
    const mean = (fs: Array<{ meanMs: number }>) => fs.reduce((s, f) => s + f.meanMs, 0) / fs.length;
    const points = figures.large[0]!.points;
    if (points !== steps) throw new Error(`the history answered ${points} points, expected ${steps}`);
    return {
      id: 'metric-history',
      title: `8. GET /v1/preview/models/{id}/metrics, ${steps.toLocaleString('en-US')} steps`,
      lines: [
        {
          measure: 'whole history: logs of 320 trajectories vs logs of 32',
          value: fmt.ms(mean(figures.large)),
          baseline: `32 a log: ${fmt.ms(mean(figures.small))}`,
          ratio: mean(figures.large) / mean(figures.small),
          target: { op: '<=', value: 1.5 },
        },
      ],
      notes: [
        `${steps.toLocaleString('en-US')} steps, each a checkpoint and one val log of 8 groups; ${points.toLocaleString('en-US')} points a read. Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 2} s per model.`,
      ],
      raw: { steps, figures },
    };
  } finally {
    await weft.stop();
  }
}
