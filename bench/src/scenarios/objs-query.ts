// Scenario 3: POST /objs/query with latest_only and limit 100 in a project of 100,000 versions of
// 10,000 objects and in one of 1,000 versions of 100: a page must cost the same in both.
// Latency of one client in a loop, alternating the two projects over two rounds.
import { checkOnce, measureHttp, type Figure } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { PROJECTS } from '../seed/spec.ts';
import { startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

export async function objsQueryScenario(ctx: RunContext): Promise<ScenarioResult> {
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    const target = (projectId: string) => ({
      url: `${weft.url}/objs/query`,
      headers: ctx.creds.headers,
      body: JSON.stringify({ project_id: projectId, filter: { latest_only: true }, limit: 100 }),
    });
    const large = target(PROJECTS.objsLarge);
    const small = target(PROJECTS.objsSmall);
    for (const t of [large, small]) {
      const objs = (JSON.parse(await checkOnce(t)) as { objs: unknown[] }).objs;
      if (objs.length !== 100) throw new Error(`objs/query answered ${objs.length} objects, expected 100`);
    }
    const figures: Record<'large' | 'small', Figure[]> = { large: [], small: [] };
    for (let round = 0; round < 2; round++) {
      for (const name of ['large', 'small'] as const) {
        say(`  objs/query round ${round + 1}: ${name} project`);
        figures[name].push(await measureHttp(name === 'large' ? large : small, { connections: 1, duration: ctx.seconds / 2, warmup: 1 }));
      }
    }
    const mean = (fs: Figure[]) => fs.reduce((s, f) => s + f.meanMs, 0) / fs.length;
    const { largeProject: L, smallProject: S } = ctx.spec;
    const describe = (p: typeof L) =>
      `${(p.objects * p.versions).toLocaleString('en-US')} versions of ${p.objects.toLocaleString('en-US')} objects`;
    return {
      id: 'objs-query',
      title: '3. POST /objs/query, latest_only, limit 100',
      lines: [
        {
          measure: `${describe(L)} vs ${describe(S)}`,
          value: fmt.ms(mean(figures.large)),
          baseline: `small project: ${fmt.ms(mean(figures.small))}`,
          ratio: mean(figures.large) / mean(figures.small),
          target: { op: '<=', value: 2 },
        },
      ],
      notes: [`Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 2} s per project.`],
      raw: { largeProject: L, smallProject: S, figures },
    };
  } finally {
    await weft.stop();
  }
}
