// Budgets run per UTC day and per UTC month: the counter's name carries the period, so a new
// period starts at zero without anyone resetting anything, and the counter expires after it.

export type BudgetPeriod = 'day' | 'month';

export interface PeriodWindow {
  /** Part of the counter's name, e.g. `2026-11-27` or `2026-11`. */
  label: string;
  /** When the next period starts (epoch ms). */
  endsAt: number;
}

export function periodWindow(period: BudgetPeriod, now: number): PeriodWindow {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const month = `${y}-${String(m + 1).padStart(2, '0')}`;
  if (period === 'month') return { label: month, endsAt: Date.UTC(y, m + 1, 1) };
  return { label: `${month}-${String(d.getUTCDate()).padStart(2, '0')}`, endsAt: Date.UTC(y, m, d.getUTCDate() + 1) };
}
