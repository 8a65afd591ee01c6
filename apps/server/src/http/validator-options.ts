// express-openapi-validator's options, in one place: the middleware (app.ts) is built from them,
// and so is the ajv that validates what runs outside the middleware (spec-ajv.ts: the trajectory
// log piece by piece, long lists a slice at a time), through the library's own option handling.
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import { operations, spec } from './spec.ts';

// Streamed bodies are parsed and validated piece by piece by their handler, against the same
// spec; bytes bodies (OTLP) are decoded by theirs, with OTLP's own rules.
const streamed = operations
  .filter((op) => op.bodyMode === 'stream' || op.bodyMode === 'bytes')
  .map((op) => new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`));

/**
 * A new object each time: the library normalises the options it is given in place.
 * `allErrors`: list every problem (costly on large invalid bodies) or stop at the first.
 */
export function validatorOptions(allErrors: boolean, validateResponses = false): OpenApiValidatorOpts {
  return {
    apiSpec: spec as never,
    validateRequests: { allErrors, allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    // Multipart bodies are read by the body module (limits and errors in one place).
    fileUploader: false,
    ignorePaths: (path: string) => streamed.some((re) => re.test(path)),
  };
}
