// A queue's results: each item with the scores its reviewers gave (feedback written from the queue,
// `wandb.annotation.<scorer>` on the item's call), one row per item and reviewer, and the same rows
// as CSV (RFC 4180) and JSON Lines for export.
import type { AnnotationQueueItemSchema } from '@weft/types';
import { annotationName, userOf, type Feedback } from './feedback-facts.ts';

export type QueueFeedback = Feedback & { weave_ref?: string };

export interface ResultRow {
  item_id: string;
  position: number | null;
  call_id: string;
  call_trace_id: string;
  call_op_name: string;
  annotation_state: AnnotationQueueItemSchema['annotation_state'];
  /** The reviewer whose scores these are: the feedback's user, or the item's last annotator. */
  annotator: string;
  /** When this reviewer last scored the item ('' without scores). */
  annotated_at: string;
  scores: Record<string, unknown>;
}

/** `weave:///e/p/object/quality:digest` → `quality`. */
export function scorerNameOf(ref: string): string {
  const match = /\/object\/([^:/]+)(?::[^/]*)?$/.exec(ref);
  return match ? decodeURIComponent(match[1]!) : ref;
}

export function resultRows(
  projectId: string,
  items: readonly AnnotationQueueItemSchema[],
  feedback: readonly QueueFeedback[],
): ResultRow[] {
  const byRef = new Map<string, QueueFeedback[]>();
  for (const row of feedback) {
    if (row.weave_ref === undefined || annotationName(row.feedback_type) === undefined) continue;
    byRef.set(row.weave_ref, [...(byRef.get(row.weave_ref) ?? []), row]);
  }
  const rows: ResultRow[] = [];
  for (const item of items) {
    const base = {
      item_id: item.id,
      position: item.position_in_queue ?? null,
      call_id: item.call_id,
      call_trace_id: item.call_trace_id,
      call_op_name: item.call_op_name,
      annotation_state: item.annotation_state,
    };
    // Oldest first, so a reviewer's later score of a field replaces the earlier one.
    const given = [...(byRef.get(`weave:///${projectId}/call/${item.call_id}`) ?? [])].sort((a, b) =>
      a.created_at.localeCompare(b.created_at),
    );
    const byAnnotator = new Map<string, ResultRow>();
    for (const row of given) {
      const annotator = userOf(row) ?? row.creator ?? '';
      const entry = byAnnotator.get(annotator) ?? { ...base, annotator, annotated_at: '', scores: {} };
      entry.scores[annotationName(row.feedback_type)!] = (row.payload as { value?: unknown }).value;
      entry.annotated_at = row.created_at;
      byAnnotator.set(annotator, entry);
    }
    if (byAnnotator.size === 0) rows.push({ ...base, annotator: item.annotator_user_id ?? '', annotated_at: '', scores: {} });
    else rows.push(...byAnnotator.values());
  }
  return rows;
}

const FIXED = ['item_id', 'position', 'call_id', 'call_trace_id', 'call_op_name', 'annotation_state', 'annotator', 'annotated_at'] as const;

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text =
    typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line, then one line per row; the scorers' columns follow the fixed ones, in the queue's order. */
export function toCsv(rows: readonly ResultRow[], scorers: readonly string[]): string {
  const lines = [[...FIXED, ...scorers].map(csvCell).join(',')];
  for (const row of rows) lines.push([...FIXED.map((k) => row[k]), ...scorers.map((s) => row.scores[s])].map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function toJsonLines(rows: readonly ResultRow[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}
