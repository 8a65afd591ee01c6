// The traces page's status, time, score and text filters as Weave's query language (`query.$expr`),
// which calls/stream_query and calls/query_stats both take. A score is an annotation field's
// newest value, as Weave's calls query names it: `feedback.[wandb.annotation.<name>].payload.value`.

export interface TraceConditions {
  /** success | error | running | descendant_error; '' for any. */
  status: string;
  /** ISO times, '' for open-ended. */
  from: string;
  to: string;
  /** `<annotation name><op><value>` with op one of >= <= > < =, e.g. `quality>=4`; '' for any. */
  score?: string;
  /** Text searched for (case-insensitive) in `searchIn`; '' for none. */
  search?: string;
  /** A field of the inputs or the output (traces-columns.ts isSearchField). */
  searchIn?: string;
}

type Expr = Record<string, unknown>;

export const SCORE_OPS = ['>=', '<=', '=', '>', '<'] as const;
export type ScoreOp = (typeof SCORE_OPS)[number];
export interface ScoreCondition {
  name: string;
  op: ScoreOp;
  value: string;
}

const SCORE = /^([\p{L}\p{N}_.-]+)(>=|<=|=|>|<)(.+)$/u;

export function parseScore(text: string): ScoreCondition | undefined {
  const match = SCORE.exec(text);
  return match ? { name: match[1]!, op: match[2] as ScoreOp, value: match[3]! } : undefined;
}

export const formatScore = ({ name, op, value }: ScoreCondition): string => `${name}${op}${value}`;

/** The field of an annotation's value in Weave's calls query. */
export const annotationField = (name: string): string => `feedback.[wandb.annotation.${name}].payload.value`;

function scoreExpr({ name, op, value }: ScoreCondition): Expr {
  const numeric = value.trim() !== '' && Number.isFinite(Number(value));
  // Numbers compare as numbers (Weave's UI converts the same way); labels compare as text.
  const left = numeric ? { $convert: { input: { $getField: annotationField(name) }, to: 'double' } } : { $getField: annotationField(name) };
  const right = { $literal: numeric ? Number(value) : value };
  switch (op) {
    case '=':
      return { $eq: [left, right] };
    case '>':
      return { $gt: [left, right] };
    case '>=':
      return { $gte: [left, right] };
    // A call without the score matches neither side: not(null) stays null in SQL.
    case '<':
      return { $not: [{ $gte: [left, right] }] };
    case '<=':
      return { $not: [{ $gt: [left, right] }] };
  }
}

export function tracesQuery({ status, from, to, score = '', search = '', searchIn = '' }: TraceConditions): { $expr: Expr } | undefined {
  const field = (name: string) => ({ $getField: name });
  const parts: Expr[] = [];
  // Weave's $contains: a substring test the database runs on the one field, no index behind it.
  if (search.trim() && searchIn)
    parts.push({ $contains: { input: field(searchIn), substr: { $literal: search.trim() }, case_insensitive: true } });
  const scored = parseScore(score);
  if (scored) parts.push(scoreExpr(scored));
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
