// Validates a trajectory log piece by piece against the schemas of the bundled spec (Trajectory,
// TrajectoryGroup, ModelLogReq, the model_id path parameter) with ajv's public API, configured as
// express-openapi-validator configures it for every other route (ajv's 2020 dialect for OpenAPI
// 3.1, the same options, OpenAPI's formats and ajv-formats in fast mode): the same messages and
// the same defaults filled in (useDefaults, so stored rows are identical), as `{path, message,
// errorCode}` items that validation-error.ts maps to the 422 body like every other route's.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { spec } from '../spec.ts';

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface ValidatorItem {
  path: string;
  message: string;
  errorCode: string;
}

interface Doc {
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; parameters: Record<string, { schema: unknown }> };
}

/** The options express-openapi-validator gives ajv for requests with app.ts's settings: keep in step. */
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
} as const;

/** OpenAPI's own formats, as the validator defines them (int64 and friends are numbers). */
const OPENAPI_FORMATS = {
  int32: { type: 'number', validate: (i: number) => Number.isInteger(i) && i <= 2 ** 31 - 1 && i >= -(2 ** 31) },
  int64: { type: 'number', validate: (i: number) => Number.isInteger(i) && i <= 2 ** 63 - 1 && i >= -(2 ** 63) },
  double: { type: 'number', validate: (i: number) => typeof i === 'number' },
  binary: true,
  password: true,
  'media-range': true,
} as const;

function compile() {
  const doc = spec as unknown as Doc;
  const ajv = new Ajv2020(AJV_OPTIONS);
  for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format);
  addFormats.default(ajv, { mode: 'fast' });
  // `#/components/…` references resolve against this document, as in the bundled spec.
  ajv.addSchema({ $id: 'weft-spec', components: doc.components });
  const get = (name: string) => ajv.getSchema(`weft-spec#/components/schemas/${name}`) as ValidateFunction;
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
