// ajv over the bundled spec's components, for the validation that runs outside
// express-openapi-validator (the trajectory log piece by piece, long lists a slice at a time). It
// is configured as the middleware configures ajv for every other route (ajv's 2020 dialect for
// OpenAPI 3.1, the same options, OpenAPI's formats and ajv-formats in fast mode): the same
// messages and the same defaults filled in (useDefaults), as `{path, message, errorCode}` items
// that validation-error.ts maps to the 422 body like every other route's.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { spec } from './spec.ts';

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface ValidatorItem {
  path: string;
  message: string;
  errorCode: string;
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

function build() {
  const ajv = new Ajv2020(AJV_OPTIONS);
  for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format);
  addFormats.default(ajv, { mode: 'fast' });
  // `#/components/…` references resolve against this document, as in the bundled spec.
  ajv.addSchema({ $id: 'weft-spec', components: (spec as { components: object }).components });
  return ajv;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The validator of the spec's schema at `pointer` (e.g. `/components/schemas/Trajectory`), compiled once per process. */
export function specValidator(pointer: string): ValidateFunction {
  let fn = compiled.get(pointer);
  if (!fn) {
    ajv ??= build();
    fn = ajv.getSchema(`weft-spec#${pointer}`) as ValidateFunction | undefined;
    if (!fn) throw new Error(`no schema at ${pointer} in the spec`);
    compiled.set(pointer, fn);
  }
  return fn;
}

/** A validator of a schema given inline (a parameter's schema), with the same ajv. */
export function inlineValidator(schema: object): ValidateFunction {
  ajv ??= build();
  return ajv.compile(schema) as ValidateFunction;
}

/** Validates `value` (which gains its defaults) and answers its problems at `base` (e.g. `/body/batch/0`). */
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
