// Scenario 6: the server's peak resident set (its own process) during scenarios 2 and 4.
import { fmt, type ScenarioResult } from '../report/results.ts';

const LIMIT_MB = 300;

export function rssScenario(peaks: { tableQuery?: number; logIngest?: number; idle?: number }): ScenarioResult {
  const line = (measure: string, mb: number) => ({
    measure,
    value: fmt.mb(mb),
    baseline: peaks.idle ? `idle after start: ${fmt.mb(peaks.idle)}` : '',
    ratio: null,
    target: { op: '<=' as const, value: LIMIT_MB },
    absolute: { value: mb, unit: 'MB' },
  });
  const lines = [];
  if (peaks.tableQuery !== undefined) lines.push(line('peak RSS during scenario 2 (1M-row queries, order build)', peaks.tableQuery));
  if (peaks.logIngest !== undefined) lines.push(line('peak RSS during scenario 4 (64 MB log bodies)', peaks.logIngest));
  return {
    id: 'rss',
    title: '6. Server peak RSS',
    lines,
    notes: [
      'VmHWM of the server process (reset through /proc/<pid>/clear_refs when the scenario starts), or the largest sampled VmRSS if higher.',
    ],
    raw: peaks,
  };
}
