// The traces page's status and time filters as Weave's query language (`query.$expr`), which
// calls/stream_query and calls/query_stats both take.

export interface TraceConditions {
  /** success | error | running | descendant_error; '' for any. */
  status: string;
  /** ISO times, '' for open-ended. */
  from: string;
  to: string;
}

type Expr = Record<string, unknown>;

export function tracesQuery({ status, from, to }: TraceConditions): { $expr: Expr } | undefined {
  const field = (name: string) => ({ $getField: name });
  const parts: Expr[] = [];
  if (status) parts.push({ $eq: [field('summary.weave.status'), { $literal: status }] });
  if (from) parts.push({ $gte: [field('started_at'), { $literal: from }] });
  // "Up to" includes the moment itself: not after it.
  if (to) parts.push({ $not: [{ $gt: [field('started_at'), { $literal: to }] }] });
  if (parts.length === 0) return undefined;
  return { $expr: parts.length === 1 ? parts[0]! : { $and: parts } };
}

/** `<input type="datetime-local">`'s value (local time) ↔ the ISO time kept in the URL. */
export const localToIso = (local: string): string => (local ? new Date(local).toISOString() : '');
export function isoToLocal(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
