// ajv over the bundled spec's components, for the validation that runs outside
// express-openapi-validator (the trajectory log piece by piece, long lists a slice at a time). It
// is the library's own request ajv, made by the library from the middleware's options: the same
// messages and the same defaults filled in (useDefaults), as `{path, message, errorCode}` items
// that validation-error.ts maps to the 422 body like every other route's.
import type { Ajv, ErrorObject } from 'ajv';
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import { spec } from './spec.ts';
import { validatorOptions } from './validator-options.ts';

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface ValidatorItem {
  path: string;
  message: string;
  errorCode: string;
}

/**
 * ajv as express-openapi-validator builds it for request bodies (its options, formats and
 * keywords), from the options the middleware gets (validator-options.ts), every problem listed.
 */
function build(): Ajv {
  const { ajvOpts } = new OpenApiValidator(validatorOptions(true));
  const ajv = createRequestAjv({ openapi: spec.openapi, info: spec.info, paths: {} } as never, ajvOpts.request);
  // `#/components/…` references resolve against this document, as in the bundled spec.
  ajv.addSchema({ $id: 'weft-spec', components: (spec as { components: object }).components });
  return ajv;
}

let ajv: Ajv | undefined;
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
