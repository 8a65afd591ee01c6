// The checks Weave's trace server makes on feedback/create (weave/trace_server/feedback.py,
// interface/feedback_types.py), in its order, with its messages. Every violation is a 400.
//
// The checks that read the database (the queue, the annotation spec's field_schema) are in
// annotation-check.ts. Not done: Weave adds emoji aliases (`alias`, `detoned`, …) to reactions
// from the Python emoji package's name table; Weft stores reactions as sent.
import { invalidRequest, parseWeaveRef, pyJsonDumpsValue, type WeaveRef } from '@weft/core';
import type * as T from '@weft/types';

export const REACTION_TYPE = 'wandb.reaction.1';
export const NOTE_TYPE = 'wandb.note.1';
const ANNOTATION_PREFIX = 'wandb.annotation';
const RUNNABLE_PREFIX = 'wandb.runnable';
const MAX_NOTE_LENGTH = 1024;
/** ClickHouse's cap, measured like Weave: the length of Python's json.dumps of the payload. */
export const MAX_PAYLOAD_CHARS = 1024 * 1024;

// One emoji: an RGI sequence (flags, ZWJ families, keycaps, skin tones) or a single pictograph,
// which also covers the unqualified forms (☺ without U+FE0F) the Python emoji package counts.
const EMOJI = new RegExp('\\p{RGI_Emoji}|\\p{Extended_Pictographic}', 'gv');

export function validateFeedback(req: T.FeedbackCreateReq): void {
  const payload = req.payload as Record<string, unknown>;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw invalidRequest('payload must be a JSON object');
  }
  const type = req.feedback_type;

  if (type === REACTION_TYPE && typeof payload.emoji !== 'string') {
    throw invalidRequest(`Invalid payload for feedback_type ${type}: emoji must be a string`);
  }
  if (type === NOTE_TYPE) {
    const note = payload.note;
    const length = typeof note === 'string' ? [...note].length : -1;
    if (length < 1 || length > MAX_NOTE_LENGTH) {
      throw invalidRequest(`Invalid payload for feedback_type ${type}: note must be a string of 1 to ${MAX_NOTE_LENGTH} characters`);
    }
  }

  if (type.startsWith(ANNOTATION_PREFIX)) {
    const name = subname(type, ANNOTATION_PREFIX, 'annotation');
    if (!req.annotation_ref) throw invalidRequest('annotation_ref is required for annotation feedback');
    const ref = refOf(req.annotation_ref, ['object']);
    if (ref.name !== name) throw invalidRequest(`annotation_ref must point to an object with name ${name}`);
    if (!('value' in payload)) throw invalidRequest(`Invalid payload for feedback_type ${type}: value is required`);
  } else if (req.annotation_ref) {
    throw invalidRequest('annotation_ref is not allowed for non-annotation feedback');
  } else if (type.startsWith(RUNNABLE_PREFIX)) {
    const name = subname(type, RUNNABLE_PREFIX, 'runnable');
    if (!req.runnable_ref) throw invalidRequest('runnable_ref is required for runnable feedback');
    const ref = refOf(req.runnable_ref, ['op', 'object']);
    if (ref.name !== name) throw invalidRequest(`runnable_ref must point to an object with name ${name}`);
    if (ref.kind === 'op' && !req.call_ref) throw invalidRequest('call_ref is required for runnable feedback on ops');
    if (!('output' in payload)) throw invalidRequest(`Invalid payload for feedback_type ${type}: output is required`);
  } else if (req.runnable_ref) {
    throw invalidRequest('runnable_ref is not allowed for non-runnable feedback');
  } else if (req.call_ref) {
    throw invalidRequest('call_ref is not allowed for non-runnable feedback');
  } else if (req.trigger_ref) {
    throw invalidRequest('trigger_ref is not allowed for non-runnable feedback');
  }

  if (req.annotation_ref && refOf(req.annotation_ref, ['object']).projectId !== req.project_id) {
    throw invalidRequest(`Annotation ref ${req.annotation_ref} does not match project id ${req.project_id}`);
  }
  if (req.call_ref) refOf(req.call_ref, ['call']);
  if (req.trigger_ref) refOf(req.trigger_ref, ['object']);

  if (type === REACTION_TYPE && (String(payload.emoji).match(EMOJI)?.length ?? 0) !== 1) {
    throw invalidRequest('Value of emoji key in payload must be exactly one emoji');
  }
  // Python's json.dumps escapes non-ASCII (ensure_ascii), so this counts what ClickHouse would.
  if (pyJsonDumpsValue(payload).length > MAX_PAYLOAD_CHARS) throw invalidRequest('Feedback payload too large');
}

export const isAnnotationType = (type: string): boolean => type.startsWith(ANNOTATION_PREFIX);

function subname(type: string, prefix: string, what: string): string {
  if (!type.startsWith(`${prefix}.`)) throw invalidRequest(`Invalid ${what} feedback type: ${type}`);
  return type.slice(prefix.length + 1);
}

function refOf<K extends WeaveRef['kind']>(uri: string, kinds: readonly K[]): Extract<WeaveRef, { kind: K }> {
  const ref = parseWeaveRef(uri);
  if ('error' in ref) throw invalidRequest(ref.error);
  if (!(kinds as readonly string[]).includes(ref.kind)) throw invalidRequest(`Invalid ref ${uri}: the kind must be ${kinds.join(' or ')}`);
  return ref as Extract<WeaveRef, { kind: K }>;
}
