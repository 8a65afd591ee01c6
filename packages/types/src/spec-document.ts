// The bundled OpenAPI document (spec/openapi.json), read once. Only the parts the readers walk
// are typed; schemas stay opaque and are handed to the JSON-Schema validator as they are.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ReferenceObject {
  $ref: string;
}

export interface MediaTypeObject {
  schema?: unknown;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}

export interface OperationObject {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: (ParameterObject | ReferenceObject)[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> } | ReferenceObject;
  responses: Record<string, ResponseObject | ReferenceObject>;
  /** Weft's extension: how the request body is read (json, lossless, stream, multipart, bytes). */
  'x-weft-body'?: string;
  /** Weft's extension: the rate limit the operation counts against (ingest or query). */
  'x-weft-rate-class'?: string;
  /** Weft's extension: the shape of its error answers (weft, the default, or openai). */
  'x-weft-errors'?: string;
  /** Weft's extension: the scope a key needs to run it (read, write or admin). */
  'x-weft-access'?: string;
}

export type PathItemObject = { parameters?: (ParameterObject | ReferenceObject)[] } & Partial<
  Record<'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace', OperationObject>
>;

export interface OpenApiDocument {
  openapi: string;
  security?: Record<string, string[]>[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    [section: string]: Record<string, unknown>;
  };
}

/** Where the bundle lives (resolved through the @weft/spec package). */
export const SPEC_FILE = createRequire(import.meta.url).resolve('@weft/spec/openapi.json');

export function loadSpec(file: string = SPEC_FILE): OpenApiDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

export const isReference = (value: unknown): value is ReferenceObject =>
  typeof value === 'object' && value !== null && typeof (value as ReferenceObject).$ref === 'string';

/** Follows a local `$ref` (`#/components/...`) to the object it names; other values pass through. */
export function deref<T>(doc: OpenApiDocument, value: T | ReferenceObject): T {
  let current: unknown = value;
  for (let hops = 0; isReference(current); hops++) {
    if (hops > 16) throw new Error(`$ref loop at ${current.$ref}`);
    current = resolvePointer(doc, current.$ref);
  }
  return current as T;
}

export function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/').map(unescapeJsonPointer)) {
    if (typeof node !== 'object' || node === null || !(part in node)) throw new Error(`$ref ${ref} does not resolve`);
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export const escapeJsonPointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
const unescapeJsonPointer = (part: string) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
