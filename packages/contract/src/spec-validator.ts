// Validates values against schemas of the bundled spec. The whole document is added to Ajv under
// an id, and every schema is compiled as a `$ref` into it, so the spec's own `#/components/...`
// references resolve exactly as they are written (OpenAPI 3.1 schemas are JSON Schema 2020-12).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { escapeJsonPointer, type OpenApiDocument } from '@weft/types/spec';

const SPEC_ID = 'https://weft.invalid/openapi.json';

// Under NodeNext the default import of this CommonJS module is its module.exports, whose
// `default` is the plugin itself (the same function).
const addFormats = formats.default;

export interface SpecValidator {
  /**
   * Problems of `value` against the schema at `pointer` in the spec (a JSON pointer, e.g.
   * `/components/schemas/ObjReadRes`); empty when it is valid.
   */
  problems(pointer: string, value: unknown): string[];
  /** Same, for a schema of `#/components/schemas/<name>`. */
  schemaProblems(name: string, value: unknown): string[];
}

export function createSpecValidator(doc: OpenApiDocument): SpecValidator {
  // strict: false because the document carries OpenAPI keywords (info, paths, example, …) that
  // are not JSON Schema; validateSchema: false because the document as a whole is no schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, SPEC_ID);

  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      // Each part is already JSON-pointer escaped; URI-encode it too (paths hold `{`, `}`).
      const fragment = pointer.split('/').map(encodeURIComponent).join('/');
      validate = ajv.compile({ $ref: `${SPEC_ID}#${fragment}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };

  const problems = (pointer: string, value: unknown): string[] => {
    const validate = compile(pointer);
    return validate(value) ? [] : (validate.errors ?? []).map(describeError);
  };
  return {
    problems,
    schemaProblems: (name, value) => problems(`/components/schemas/${escapeJsonPointer(name)}`, value),
  };
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const params = error.keyword === 'additionalProperties' ? ` (${String(error.params['additionalProperty'])})` : '';
  return `${where} ${error.message ?? error.keyword}${params}`;
}
