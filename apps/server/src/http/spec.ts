// The bundled spec and its operations, read once at start through the one spec reader
// (@weft/types/spec), which the contract suite uses too.
import spec from '@weft/spec' with { type: 'json' };
import { specOperations, type OpenApiDocument, type SpecOperation } from '@weft/types/spec';

export { spec };
export const operations: readonly SpecOperation[] = specOperations(spec as unknown as OpenApiDocument);
