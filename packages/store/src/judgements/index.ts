// LLM-as-judge: calls/score and the reads of what was judged (operations), and the work tables
// the server's judges and monitor scan use (judge-work.ts, monitor-work.ts: exported, not operations).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { callsScore } from './calls-score.ts';
import { judgementsQuery } from './judgements-query.ts';
import { judgementsStats } from './judgements-stats.ts';

export { claimJudgements, settleJudgement, type ClaimedJudgement, type JudgementOutcome } from './judge-work.ts';
export { liveMonitors, monitorCursor, onMonitorScanLock, recordMonitorStep, type LiveMonitor, type MonitorStep } from './monitor-work.ts';
export { MAX_JUDGEMENTS_PER_REQUEST } from './calls-score.ts';

export function judgementMethods({ db }: Pick<StoreOptions, 'db'>) {
  return storeMethods({
    callsScore: (req, ctx) => callsScore(db, req, ctx.user),
    judgementsQuery: (req) => judgementsQuery(db, req),
    judgementsStats: (req) => judgementsStats(db, req),
  });
}
