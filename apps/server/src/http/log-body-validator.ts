// Validates a streamed trajectory log piece by piece against the schemas of the bundled spec
// (Trajectory, TrajectoryGroup, ModelLogReq, the model_id path parameter), with an ajv built by
// express-openapi-validator's own factory and options: same messages, same defaults filled in
// (useDefaults, so stored rows are identical), same `{path, message, errorCode}` items, which
// validation-error.ts maps to the 422 body exactly as for every other route.
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import { spec } from './spec.ts';

// The slice of ajv's types used here (ajv is express-openapi-validator's dependency, not ours).
interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

export interface ValidatorItem {
  path: string;
  message: string;
  errorCode: string;
}

type Doc = {
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; parameters: Record<string, { schema: unknown }> };
};

// The options express-openapi-validator derives from app.ts's (AjvOptions.request): keep in step.
const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  strictNumbers: true,
  strictTuples: true,
  allowUnionTypes: false,
  validateSchema: false,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
  validateFormats: true,
  formats: {},
  serDesMap: {},
  // normalizeOptions: validateFormats: true without ajvFormats means ajv-formats in 'fast' mode.
  ajvFormats: { mode: 'fast' },
};

function compile() {
  // The factory edits the document it is given (x-stoplight keys): hand it a copy.
  const doc = structuredClone(spec) as unknown as Doc;
  const ajv = createRequestAjv(doc as never, AJV_OPTIONS as never);
  const get = (name: string) => ajv.getSchema(`#/components/schemas/${name}`) as ValidateFunction;
  return {
    trajectory: get('Trajectory'),
    group: get('TrajectoryGroup'),
    request: get('ModelLogReq'),
    requestKeys: Object.keys(doc.components.schemas.ModelLogReq?.properties ?? {}),
    modelId: ajv.compile(doc.components.parameters.ModelIdPath!.schema as object) as ValidateFunction,
  };
}

let compiled: ReturnType<typeof compile> | undefined;
/** Compiled on first use (once per process), like the middleware's own cache. */
export function logValidators() {
  return (compiled ??= compile());
}

/** Validates `value` (which gains its defaults) and answers its problems at `base` (e.g. `/body/trajectory_groups/0`). */
export function check(validate: ValidateFunction, value: unknown, base: string): ValidatorItem[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const params = e.params as { missingProperty?: string; additionalProperty?: string; unevaluatedProperty?: string };
    const name = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    return {
      path: base + (name !== undefined ? `${e.instancePath}/${name}` : e.instancePath),
      message: e.message ?? 'invalid value',
      errorCode: `${e.keyword}.openapi.validation`,
    };
  });
}
