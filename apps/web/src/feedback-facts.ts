// What Studio shows of a call's feedback (summary.weave.feedback, or feedback/query rows): Weave's
// reaction, note and annotation types read into labels, values and per-call summaries.
import type { FeedbackRow } from '@weft/types';

export const REACTION_TYPE = 'wandb.reaction.1';
export const NOTE_TYPE = 'wandb.note.1';
const ANNOTATION_PREFIX = 'wandb.annotation.';
const RUNNABLE_PREFIX = 'wandb.runnable.';

/** A feedback row as calls/stream_query's include_feedback and feedback/query give it. */
export type Feedback = Required<Pick<FeedbackRow, 'id' | 'feedback_type' | 'payload' | 'created_at'>> &
  Pick<FeedbackRow, 'creator' | 'wb_user_id'> & { svc_user_id?: string | null };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** The call's feedback rows, oldest first, as the server returned them (empty without include_feedback). */
export function feedbackOf(call: { summary?: unknown }): Feedback[] {
  const rows = obj(obj(call.summary).weave).feedback;
  return Array.isArray(rows) ? (rows as Feedback[]) : [];
}

/** Who wrote it: the name the client gave (`creator`), else the authenticated user. */
export function authorOf(row: Feedback): string {
  return row.creator || row.wb_user_id || row.svc_user_id || 'unknown';
}

export function userOf(row: Feedback): string | undefined {
  return row.wb_user_id ?? row.svc_user_id ?? undefined;
}

/** `wandb.annotation.quality` → `quality`; undefined for other types. */
export function annotationName(type: string): string | undefined {
  return type.startsWith(ANNOTATION_PREFIX) ? type.slice(ANNOTATION_PREFIX.length) : undefined;
}

export interface FeedbackView {
  kind: 'reaction' | 'note' | 'annotation' | 'scorer' | 'other';
  /** Reaction, Note, the annotation's or scorer's name, or the raw type. */
  label: string;
  /** The value as text: an emoji, the note, a score, or the payload's JSON. */
  value: string;
}

export function viewOf(row: Feedback): FeedbackView {
  const payload = obj(row.payload);
  if (row.feedback_type === REACTION_TYPE) return { kind: 'reaction', label: 'Reaction', value: valueText(payload.emoji) };
  if (row.feedback_type === NOTE_TYPE) return { kind: 'note', label: 'Note', value: valueText(payload.note) };
  const annotation = annotationName(row.feedback_type);
  if (annotation !== undefined) return { kind: 'annotation', label: annotation, value: valueText(payload.value) };
  if (row.feedback_type.startsWith(RUNNABLE_PREFIX))
    return { kind: 'scorer', label: row.feedback_type.slice(RUNNABLE_PREFIX.length), value: valueText(payload.output) };
  return { kind: 'other', label: row.feedback_type, value: valueText(row.payload) };
}

export function valueText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface ReactionCount {
  emoji: string;
  count: number;
  /** The signed-in user's reaction of this emoji (its row id), which a click removes. */
  mineId?: string;
}

/** Reactions grouped by emoji, in the order first given. */
export function reactionsOf(rows: readonly Feedback[], me: string | undefined): ReactionCount[] {
  const byEmoji = new Map<string, ReactionCount>();
  for (const row of rows) {
    if (row.feedback_type !== REACTION_TYPE) continue;
    const emoji = valueText(obj(row.payload).emoji);
    const entry = byEmoji.get(emoji) ?? { emoji, count: 0 };
    entry.count += 1;
    if (me !== undefined && userOf(row) === me) entry.mineId = row.id;
    byEmoji.set(emoji, entry);
  }
  return [...byEmoji.values()];
}

/** The newest value of each annotation field (the traces list's score columns). */
export function latestAnnotations(rows: readonly Feedback[]): Map<string, unknown> {
  const latest = new Map<string, { at: string; value: unknown }>();
  for (const row of rows) {
    const name = annotationName(row.feedback_type);
    if (name === undefined) continue;
    const seen = latest.get(name);
    if (!seen || row.created_at >= seen.at) latest.set(name, { at: row.created_at, value: obj(row.payload).value });
  }
  return new Map([...latest].map(([name, { value }]) => [name, value]));
}
