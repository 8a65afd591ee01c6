// What the tables and the tree show of a call, read from its wire fields (CallSchema, unchanged).
import type { CallSchema } from '@weft/types';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** `weave:///e/p/op/answer_question:digest` → `answer_question`; a plain name as it is. */
export function opLabel(call: Pick<CallSchema, 'op_name' | 'display_name'>): string {
  if (call.display_name) return call.display_name;
  const match = /^weave:\/\/\/[^/]+\/[^/]+\/op\/([^:]+)(?::.*)?$/.exec(call.op_name);
  return match ? decodeURIComponent(match[1]!) : call.op_name;
}

export type CallStatus = 'success' | 'error' | 'running' | 'descendant_error';

export function statusOf(call: CallSchema): CallStatus {
  const status = obj(obj(call.summary).weave).status;
  if (status === 'success' || status === 'error' || status === 'running' || status === 'descendant_error') return status;
  if (call.exception) return 'error';
  return call.ended_at ? 'success' : 'running';
}

/** Milliseconds from start to end; undefined while running. */
export function latencyOf(call: CallSchema): number | undefined {
  if (!call.ended_at) return undefined;
  return Date.parse(call.ended_at) - Date.parse(call.started_at);
}

/**
 * Every model's tokens in summary.usage, counted as the server counts them (its readUsage, and the
 * `summary.weave.total_tokens` sort): total_tokens when present, else prompt + completion tokens
 * (each else its input/output alias); a count that is not a non-negative number counts 0.
 */
export function tokensOf(call: CallSchema): number {
  let total = 0;
  for (const usage of Object.values(obj(obj(call.summary).usage))) {
    const u = obj(usage);
    const first = (a: unknown, b: unknown) => count(a ?? b);
    const given = u.total_tokens !== undefined && u.total_tokens !== null;
    total += given ? count(u.total_tokens) : first(u.prompt_tokens, u.input_tokens) + first(u.completion_tokens, u.output_tokens);
  }
  return total;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : 0);

/** Dollars from summary.weave.costs (present when the read asked include_costs). */
export function costOf(call: CallSchema): number | undefined {
  const costs = obj(obj(obj(call.summary).weave).costs);
  const models = Object.values(costs);
  if (models.length === 0) return undefined;
  return models.reduce<number>((sum, c) => sum + num(obj(c).prompt_tokens_total_cost) + num(obj(c).completion_tokens_total_cost), 0);
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function formatCost(dollars: number | undefined): string {
  if (dollars === undefined) return '—';
  return dollars < 0.01 ? `$${dollars.toPrecision(2)}` : `$${dollars.toFixed(2)}`;
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago", "yesterday", "in 2 hours": the time from `now`, in the browser's language. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  let amount = (Date.parse(iso) - now) / 1000;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatTime(iso);
}
