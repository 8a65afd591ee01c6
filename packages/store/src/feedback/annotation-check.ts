// The checks of feedback/create that read the database (Weave's validate_feedback_create_req):
// a `queue_id` must name a live queue of the project, and an annotation's `payload.value` must
// match the `field_schema` of the annotation spec its `annotation_ref` names (Weave's builtin
// AnnotationSpec object: numbers with bounds, enums, booleans, free text). Weave answers a value
// that breaks the schema with 400; Weft answers 422 naming `payload.value`, as for any other
// field that does not match its schema.
import { invalidField, invalidRequest, parseWeaveRef } from '@weft/core';
import type * as T from '@weft/types';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Kysely } from 'kysely';
import { readJson, type Database, type Db } from '../db/index.ts';
import { findLiveQueue } from '../annotation-queues/queue-read.ts';
import { isAnnotationType } from './validate-feedback.ts';

// strict: false: a spec may carry keywords Ajv does not know (titles from other drafts, UI hints).
const ajv = new Ajv2020({ strict: false, allErrors: false });
/** Compiled schemas by their JSON text: specs are few and immutable per digest. */
const compiled = new Map<string, ValidateFunction>();

function validatorOf(schema: unknown, ref: string): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema as object);
    } catch (e) {
      throw invalidRequest(`Annotation spec ${ref} has an invalid field_schema: ${(e as Error).message}`);
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, validate);
  }
  return validate;
}

/** `loc`: where the item sits in the body (['body'] or ['body', 'batch', '<i>']). */
export async function checkFeedbackLinks(db: Db, kysely: Kysely<Database>, req: T.FeedbackCreateReq, loc: string[]): Promise<void> {
  if (req.queue_id) {
    const queue = await findLiveQueue(kysely, { project_id: req.project_id, queue_id: req.queue_id });
    if (!queue) throw invalidRequest(`Queue ${req.queue_id} not found or has been deleted`);
  }
  if (!isAnnotationType(req.feedback_type) || !req.annotation_ref) return;
  const ref = parseWeaveRef(req.annotation_ref);
  if ('error' in ref || ref.kind !== 'object') return; // validateFeedback has refused it already
  let query = kysely
    .selectFrom('objects')
    .select('val')
    .where('project_id', '=', ref.projectId)
    .where('object_id', '=', ref.name)
    .where('deleted_at', 'is', null);
  query = ref.version === 'latest' ? query.where('is_latest', '=', 1) : query.where('digest', '=', ref.version);
  const row = await query.executeTakeFirst();
  if (!row) throw invalidRequest(`Annotation spec ${req.annotation_ref} not found`);
  const val = readJson(db, row.val) as { field_schema?: unknown } | null;
  const schema = val && typeof val === 'object' ? val.field_schema : undefined;
  if (schema === undefined || schema === null || typeof schema !== 'object') {
    throw invalidRequest(`${req.annotation_ref} is not an annotation spec: it has no field_schema`);
  }
  const validate = validatorOf(schema, req.annotation_ref);
  const value = (req.payload as { value?: unknown }).value;
  if (!validate(value)) {
    const error = validate.errors?.[0];
    const where = error?.instancePath ? error.instancePath.split('/').slice(1) : [];
    throw invalidField(
      [...loc, 'payload', 'value', ...where],
      `Value does not match the annotation spec: ${error?.message ?? 'invalid'}`,
      'value_error',
    );
  }
}
