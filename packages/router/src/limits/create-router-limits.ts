// Limits of the router per API key and per project (the router file's `limits`): requests per
// minute, tokens per minute, and a USD budget per UTC day and per UTC month. Shared by every
// replica through Redis when one is given, counted in process otherwise; while Redis fails each
// process counts alone (redis-circuit.ts). Tokens and cost are known only after the answer, so a
// scope is refused once it is at or over its limit, and requests admitted before that may take
// it past the limit by what they use.
import type { Redis } from 'ioredis';
import { OPENAI_ERROR_TYPES } from '../openai-errors.ts';
import type { LimitsConfig, RouterConfig, RouterErrorBody } from '../types.ts';
import { memoryBudgetStore, redisBudgetStore, type BudgetStore } from './budget-store.ts';
import { RateWindow, type WindowRefusal } from './rate-windows.ts';
import { retryAfterFailure, sharedOrAlone, type RedisCircuit } from './redis-circuit.ts';
import { unitsToUsd, usdToUnits } from './usd-units.ts';
import { periodWindow, type BudgetPeriod } from './utc-periods.ts';

export const RATE_LIMIT_ERROR = OPENAI_ERROR_TYPES.rateLimit;
export const BUDGET_EXCEEDED = OPENAI_ERROR_TYPES.budgetExceeded;

export interface RouterLimits {
  /** undefined when the request may run; otherwise the 429 to answer. Takes one request. */
  admit(keyId: string, projectId: string): Promise<RouterErrorBody | undefined>;
  /** Counts an answer's tokens and cost (an exact decimal string of USD). Rejects only on a malformed cost. */
  account(keyId: string, projectId: string, tokens: number, costUsd: string): Promise<void>;
  /** A reloaded file's limits; counts are kept. */
  update(limits: RouterConfig['limits']): void;
}

export interface RouterLimitsOptions {
  limits: RouterConfig['limits'];
  /** Shared counters; unset: this process counts alone. */
  redis?: Redis | undefined;
  /** Whether Redis is to be asked (the server's own watch of its Redis); default: retried 1 s after a failure. */
  circuit?: RedisCircuit | undefined;
  /** Longest wait for Redis before counting alone (default 250 ms). */
  redisTimeoutMs?: number;
  /** Counter names start with it (default `weft-router`). */
  keyPrefix?: string;
  /** Epoch ms: which UTC day and month a spend belongs to. */
  now?: () => number;
  /** Told when Redis fails (once per outage of the default circuit). */
  onRedisFailure?: (err: Error) => void;
}

type Scope = 'key' | 'project';
const SCOPES: Scope[] = ['key', 'project'];
const PERIODS: BudgetPeriod[] = ['day', 'month'];

export function createRouterLimits(opts: RouterLimitsOptions): RouterLimits {
  const now = opts.now ?? Date.now;
  const prefix = opts.keyPrefix ?? 'weft-router';
  const timeoutMs = opts.redisTimeoutMs ?? 250;
  const circuit = opts.redis ? (opts.circuit ?? retryAfterFailure(1000, () => performance.now(), opts.onRedisFailure)) : undefined;
  const window = (kind: string, scope: Scope) => new RateWindow(`${prefix}-${kind}-${scope}`, opts.redis, circuit!, timeoutMs);
  const requests = { key: window('rpm', 'key'), project: window('rpm', 'project') };
  const tokens = { key: window('tpm', 'key'), project: window('tpm', 'project') };
  const shared: BudgetStore | undefined = opts.redis ? redisBudgetStore(opts.redis) : undefined;
  const alone = memoryBudgetStore(now);
  let limits = opts.limits;
  let budgets: { scope: Scope; period: BudgetPeriod; units: bigint; usd: string }[] = [];

  const update = (next: RouterConfig['limits']) => {
    limits = next;
    for (const scope of SCOPES) {
      requests[scope].setLimit(of(scope).requests_per_min);
      tokens[scope].setLimit(of(scope).tokens_per_min);
    }
    budgets = SCOPES.flatMap((scope) =>
      PERIODS.flatMap((period) => {
        const usd = period === 'day' ? of(scope).budget_usd_per_day : of(scope).budget_usd_per_month;
        return usd === undefined ? [] : [{ scope, period, units: usdToUnits(usd), usd }];
      }),
    );
  };
  const of = (scope: Scope): LimitsConfig => (scope === 'key' ? limits.per_key : limits.per_project);
  const idOf = (scope: Scope, keyId: string, projectId: string) => (scope === 'key' ? keyId : projectId);
  const budgetName = (scope: Scope, id: string, period: BudgetPeriod, at: number) =>
    `${prefix}-usd-${scope}:${period}:${periodWindow(period, at).label}:${id}`;
  const budgetsOn = <T>(run: (store: BudgetStore) => Promise<T>) =>
    sharedOrAlone(circuit, timeoutMs, shared && (() => run(shared)), () => run(alone));
  update(opts.limits);

  const who = (scope: Scope, projectId: string) => (scope === 'key' ? 'this API key' : `project ${projectId}`);
  const rateRefusal = (what: string, scope: Scope, projectId: string, r: WindowRefusal): RouterErrorBody => ({
    status: 429,
    type: RATE_LIMIT_ERROR,
    code: 'rate_limit_exceeded',
    param: null,
    message: `Rate limit of ${r.limit} ${what} per minute for ${who(scope, projectId)} reached; retry in ${r.retryAfterSec} s`,
    retry_after_sec: r.retryAfterSec,
  });

  return {
    async admit(keyId, projectId) {
      const at = now();
      if (budgets.length > 0) {
        const names = budgets.map((b) => budgetName(b.scope, idOf(b.scope, keyId, projectId), b.period, at));
        const spent = await budgetsOn((store) => store.read(names));
        const over = budgets.find((b, i) => spent[i]! >= b.units);
        if (over) {
          const retryAfterSec = Math.max(1, Math.ceil((periodWindow(over.period, at).endsAt - at) / 1000));
          const per = over.period === 'day' ? 'UTC day' : 'UTC month';
          return {
            status: 429,
            type: BUDGET_EXCEEDED,
            code: over.period === 'day' ? 'daily_budget_exceeded' : 'monthly_budget_exceeded',
            param: null,
            message: `The budget of ${over.usd} USD per ${per} for ${who(over.scope, projectId)} is spent (${unitsToUsd(spent[budgets.indexOf(over)]!)} USD); it renews in ${retryAfterSec} s`,
            retry_after_sec: retryAfterSec,
          };
        }
      }
      for (const scope of SCOPES) {
        const r = await tokens[scope].check(idOf(scope, keyId, projectId));
        if (r) return rateRefusal('tokens', scope, projectId, r);
      }
      for (const scope of SCOPES) {
        const r = await requests[scope].take(idOf(scope, keyId, projectId));
        if (r) return rateRefusal('requests', scope, projectId, r);
      }
      return undefined;
    },

    async account(keyId, projectId, used, costUsd) {
      const units = usdToUnits(costUsd);
      if (used > 0) {
        for (const scope of SCOPES) if (tokens[scope].limited) await tokens[scope].add(idOf(scope, keyId, projectId), used);
      }
      if (units <= 0n || budgets.length === 0) return;
      const at = now();
      const entries = budgets.map((b) => ({
        name: budgetName(b.scope, idOf(b.scope, keyId, projectId), b.period, at),
        units,
        expireAt: periodWindow(b.period, at).endsAt,
      }));
      await budgetsOn((store) => store.add(entries));
    },

    update,
  };
}
