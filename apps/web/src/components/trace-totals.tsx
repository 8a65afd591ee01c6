// The whole trace at a glance, above its tree: calls, tokens, cost, latency and failed calls.
import type { CallSchema } from '@weft/types';
import { useMemo } from 'react';
import { formatCost, formatDuration } from '../call-facts.ts';
import { traceTotals } from '../call-usage.ts';

const count = (n: number) => n.toLocaleString('en-US');

export function TraceTotals({ calls, partial }: { calls: CallSchema[]; partial: boolean }) {
  const t = useMemo(() => traceTotals(calls), [calls]);
  return (
    <section aria-label="Trace totals" className="trace-totals">
      <dl>
        <div>
          <dt>Calls</dt>
          <dd data-testid="trace-calls">{count(t.calls)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd data-testid="trace-tokens" title={`${count(t.inputTokens)} input, ${count(t.outputTokens)} output`}>
            {count(t.totalTokens)}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="trace-cost">{formatCost(t.cost)}</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd data-testid="trace-latency">{t.latencyMs === undefined ? `running (${count(t.running)})` : formatDuration(t.latencyMs)}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="trace-errors" className={t.errors > 0 ? 'error-text' : undefined}>
            {count(t.errors)}
          </dd>
        </div>
      </dl>
      {partial && <p className="muted">Totals of the calls shown, not of the whole trace.</p>}
    </section>
  );
}
