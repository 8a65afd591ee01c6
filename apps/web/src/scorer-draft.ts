// A human-annotation scorer as a queue's creator describes it in Studio, turned into Weave's
// builtin AnnotationSpec object: a name, a description, and the JSON schema of the one field a
// reviewer fills in. Written as Weave's Python SDK publishes one (the pydantic `_type`,
// `_class_name` and `_bases` keys), so its base_object_class is "AnnotationSpec" and Weave's own
// clients read it back as theirs.

export type FieldKind = 'number' | 'integer' | 'enum' | 'boolean' | 'text';

export interface ScorerDraft {
  name: string;
  description: string;
  kind: FieldKind;
  /** Bounds of a number or integer, as typed ('' for none). */
  min: string;
  max: string;
  /** An enum's options, one a line. */
  options: string;
  /** A text's longest answer, as typed ('' for none). */
  maxLength: string;
}

export const emptyScorer = (kind: FieldKind = 'integer'): ScorerDraft => ({
  name: '',
  description: '',
  kind,
  min: kind === 'integer' ? '1' : '',
  max: kind === 'integer' ? '5' : '',
  options: '',
  maxLength: '',
});

export interface AnnotationSpecVal {
  _type: 'AnnotationSpec';
  name: string;
  description: string;
  field_schema: Record<string, unknown>;
  unique_among_creators: false;
  op_scope: null;
  _class_name: 'AnnotationSpec';
  _bases: ['Object', 'BaseModel'];
}

export type Built = { ok: true; val: AnnotationSpecVal } | { ok: false; error: string };

// The server's object id rule (packages/core object-class.ts): the name becomes the object id and
// the suffix of the feedback type `wandb.annotation.<name>`.
const NAME = /^[\p{L}\p{N}_.-]{1,128}$/u;

function bound(text: string, what: string, integer: boolean): number | undefined | string {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return `${what} must be a number`;
  if (integer && !Number.isInteger(n)) return `${what} must be a whole number`;
  return n;
}

export function buildAnnotationSpec(draft: ScorerDraft): Built {
  const name = draft.name.trim();
  if (!NAME.test(name)) return { ok: false, error: `Scorer name "${name}": 1–128 letters, digits, '_', '.' or '-'` };
  const fail = (error: string): Built => ({ ok: false, error: `${name}: ${error}` });
  let schema: Record<string, unknown>;
  switch (draft.kind) {
    case 'number':
    case 'integer': {
      const integer = draft.kind === 'integer';
      const min = bound(draft.min, 'the minimum', integer);
      const max = bound(draft.max, 'the maximum', integer);
      if (typeof min === 'string') return fail(min);
      if (typeof max === 'string') return fail(max);
      if (min !== undefined && max !== undefined && min > max) return fail('the minimum is above the maximum');
      schema = { type: draft.kind, ...(min !== undefined ? { minimum: min } : {}), ...(max !== undefined ? { maximum: max } : {}) };
      break;
    }
    case 'enum': {
      const options = draft.options
        .split('\n')
        .map((o) => o.trim())
        .filter((o) => o !== '');
      if (options.length < 2) return fail('give at least two options, one a line');
      if (new Set(options).size !== options.length) return fail('an option is listed twice');
      schema = { type: 'string', enum: options };
      break;
    }
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'text': {
      const max = bound(draft.maxLength, 'the longest answer', true);
      if (typeof max === 'string') return fail(max);
      if (max !== undefined && max < 1) return fail('the longest answer must be at least 1');
      schema = { type: 'string', ...(max !== undefined ? { maxLength: max } : {}) };
      break;
    }
  }
  const val: AnnotationSpecVal = {
    _type: 'AnnotationSpec',
    name,
    description: draft.description.trim(),
    field_schema: schema,
    unique_among_creators: false,
    op_scope: null,
    _class_name: 'AnnotationSpec',
    _bases: ['Object', 'BaseModel'],
  };
  return { ok: true, val };
}

/** `weave:///<project>/object/<name>:<digest>`, the ref a queue's scorer_refs hold. */
export function objectRef(projectId: string, name: string, digest: string): string {
  return `weave:///${projectId}/object/${name}:${digest}`;
}
