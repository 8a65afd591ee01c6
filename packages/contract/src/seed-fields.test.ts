// Every field the seed (the interface we were asked to build) names must be in the spec with the
// seed's name, type and requiredness, and every operation must ask for the seed's credentials.
// The seed's tables are read at test time, never copied here, so a change to either document
// shows up as a failing test that names the field.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fieldsInNotes, parseSections, type MarkdownSection, type MarkdownTable } from './seed-markdown.ts';
import { seedTypeToSchema, typeMismatches, type JsonSchema, type SchemaNamer } from './seed-types.ts';
import {
  deref,
  escapeJsonPointer,
  isReference,
  loadSpec,
  resolvePointer,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
} from '@weft/types/spec';

const SEED_FILE = fileURLToPath(new URL('../../../../shared/seed/service-interface.md', import.meta.url));

/**
 * The seed's resource headings and the component schema each one describes. `record` marks the
 * tables of returned records: for those the seed says "fields marked optional are not always
 * present in the returned record; the others are always present", which fixes `required`. The
 * other tables (filters, sort items, trajectories, tools) describe inputs, and say whether a field
 * is required only in their Notes.
 */
const RESOURCES: Record<string, { schema: string; record: boolean }> = {
  'Object version (ObjSchema)': { schema: 'ObjSchema', record: true },
  'Object version filter (ObjectVersionFilter)': { schema: 'ObjectVersionFilter', record: false },
  'Sort item of the object query': { schema: 'ObjSortItem', record: false },
  'Call (CallSchema)': { schema: 'CallSchema', record: true },
  'Table row (TableRowSchema)': { schema: 'TableRowSchema', record: true },
  'Table row filter (TableRowFilter)': { schema: 'TableRowFilter', record: false },
  'Sort item of the table query': { schema: 'TableSortItem', record: false },
  'Trajectory group (TrajectoryGroup)': { schema: 'TrajectoryGroup', record: false },
  Trajectory: { schema: 'Trajectory', record: false },
  Tool: { schema: 'Tool', record: false },
  'Router model entry': { schema: 'RouterModel', record: true },
  'Annotation queue (AnnotationQueueSchema)': { schema: 'AnnotationQueueSchema', record: true },
  'Validation error body': { schema: 'ValidationError', record: true },
};

/** In an endpoint's table, "sort item" means the sort item of that endpoint's query. */
const SORT_ITEM_OF: Record<string, string> = {
  'POST /objs/query': 'ObjSortItem',
  'POST /table/query': 'TableSortItem',
};

/** The seed's scheme words → the spec's securitySchemes entry and what that entry must say. */
const SECURITY_SCHEMES: Record<string, { name: string; scheme: string } | null> = {
  Basic: { name: 'basicAuth', scheme: 'basic' },
  Bearer: { name: 'bearerAuth', scheme: 'bearer' },
  none: null,
};

const ENDPOINT_TITLE = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/;
const RESPONSE_BODY = /Response(?: body| (\d{3}), application\/json): (\w+), (an array of|an?) (.+?)(?: \((required)\))?\./;

// ---------------------------------------------------------------------------------------------
// The two helpers that carry the checks; their own unit tests come first.

describe('seed type mapping', () => {
  const named: SchemaNamer = (name) => ({ Trajectory: 'Trajectory', 'sort item': 'ObjSortItem' })[name];
  const schemas = {
    Datetime: { type: 'string', format: 'date-time' },
    ScorerRef: { type: 'string', description: 'aliases a string' },
    Trajectory: { type: 'object' },
    Limit: { type: ['integer', 'null'], minimum: 0 },
  };
  const doc: OpenApiDocument = { openapi: '3.1.0', paths: {}, components: { schemas, securitySchemes: {} } };
  const mismatches = (seedType: string, actual: unknown) => typeMismatches(doc, seedTypeToSchema(seedType, named), actual, 'p');

  it('maps the seed words to JSON Schema', () => {
    expect(seedTypeToSchema('string', named)).toEqual({ type: 'string' });
    expect(seedTypeToSchema('datetime', named)).toEqual({ type: 'string', format: 'date-time' });
    expect(seedTypeToSchema('any JSON value', named)).toEqual({});
    expect(seedTypeToSchema('integer or null', named)).toEqual({ type: ['integer', 'null'] });
    expect(seedTypeToSchema('string[]', named)).toEqual({ type: 'array', items: { type: 'string' } });
    expect(seedTypeToSchema('Trajectory[]', named)).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Trajectory' } });
    expect(seedTypeToSchema('sort item[] or null', named)).toEqual({
      type: ['array', 'null'],
      items: { $ref: '#/components/schemas/ObjSortItem' },
    });
  });

  it('refuses words it does not know instead of reading them as "anything"', () => {
    expect(() => seedTypeToSchema('strnig', named)).toThrow(/unknown seed type "strnig"/);
    expect(() => seedTypeToSchema('Trajectory or null', named)).toThrow(/or null/);
  });

  it('accepts extra constraints and $refs that come to the same type', () => {
    expect(mismatches('string', { type: 'string', pattern: '^a$', format: 'uuid' })).toEqual([]);
    expect(mismatches('datetime', { $ref: '#/components/schemas/Datetime' })).toEqual([]);
    expect(mismatches('string[]', { type: 'array', items: { $ref: '#/components/schemas/ScorerRef' } })).toEqual([]);
    expect(mismatches('integer or null', { $ref: '#/components/schemas/Limit' })).toEqual([]);
    expect(mismatches('any JSON value', { description: 'anything' })).toEqual([]);
    expect(mismatches('Trajectory[]', { type: 'array', items: { $ref: '#/components/schemas/Trajectory' } })).toEqual([]);
  });

  it('reports a different type, nullability, format or item', () => {
    expect(mismatches('integer', { type: ['integer', 'null'] })).toEqual(['p: expected type integer, the spec has integer or null']);
    expect(mismatches('boolean or null', { type: 'boolean' })).toEqual(['p: expected type boolean or null, the spec has boolean']);
    expect(mismatches('datetime', { type: 'string' })).toEqual(['p: expected format date-time, the spec has none']);
    expect(mismatches('string[]', { type: 'array', items: { type: 'integer' } })).toEqual([
      'p[]: expected type string, the spec has integer',
    ]);
    expect(mismatches('any JSON value', { type: 'object' })).toHaveLength(1);
    expect(mismatches('Trajectory[]', { type: 'array', items: { type: 'object' } })).toHaveLength(1);
  });

  it('reads the field lists written in Notes', () => {
    expect(fieldsInNotes('Fields: name (string, always present), strict (boolean, optional).')).toEqual([
      { name: 'name', type: 'string', presence: 'always' },
      { name: 'strict', type: 'boolean', presence: 'optional' },
    ]);
    expect(fieldsInNotes('Each item has loc (string[]), msg (string).')).toEqual([
      { name: 'loc', type: 'string[]' },
      { name: 'msg', type: 'string' },
    ]);
    expect(fieldsInNotes('Fields, all strings: completion, image.')).toEqual([
      { name: 'completion', type: 'string' },
      { name: 'image', type: 'string' },
    ]);
    expect(fieldsInNotes('A column name (shape: <column>.<property>).')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The seed against the spec.

const seedText = existsSync(SEED_FILE) ? readFileSync(SEED_FILE, 'utf8') : undefined;

if (seedText !== undefined) {
  defineSeedChecks(parseSections(seedText), loadSpec());
} else if (process.env.CI) {
  // In CI a missing seed means the checks below never ran, which must not look like a pass.
  describe('seed', () => {
    it(`is present at ${SEED_FILE}`, () => expect.fail(`seed not found at ${SEED_FILE}`));
  });
} else {
  console.warn(`seed-fields.test.ts: seed not found at ${SEED_FILE}; its field checks are skipped`);
  describe.skip(`seed not found at ${SEED_FILE}: seed field checks skipped`, () => {
    it('checks every field of the seed against the spec', () => {});
  });
}

/** What the seed claims about one field. */
interface SeedField {
  name: string;
  type: string;
  /** Whether the field must be in `required`; undefined where the seed does not say. */
  required?: boolean;
  default?: { value: unknown };
}

/** A schema of the spec and where it is, `$ref`s followed (the path names the last one). */
interface Located {
  schema: JsonSchema;
  at: string;
}

function defineSeedChecks(sections: MarkdownSection[], doc: OpenApiDocument) {
  const resourceSections = sections.filter((s) => s.level === 3 && s.parent === 'Resources and their fields');
  const endpointSections = sections.filter((s) => s.level === 3 && s.parent === 'Endpoints');
  const resourceNamed = resourceNamer();

  describe('the seed is read completely', () => {
    // Without these, a heading renamed in the seed would drop its fields from the checks unnoticed.
    it('every resource heading of the seed has its schema', () => {
      expect(resourceSections.map((s) => s.title).sort()).toEqual(Object.keys(RESOURCES).sort());
    });

    it('the overview, the endpoint sections and the authentication table name the same operations', () => {
      const overview = onlyTable(section(sections, 'What the service does')).rows.map((row) => row['Method and path']);
      const auth = onlyTable(section(sections, 'Authentication')).rows.map((row) => row['Operation']);
      expect(overview.length).toBeGreaterThan(0);
      expect(endpointSections.map((s) => s.title).sort()).toEqual([...overview].sort());
      expect([...auth].sort()).toEqual([...overview].sort());
    });
  });

  describe('resources', () => {
    for (const resource of resourceSections) {
      const mapped = RESOURCES[resource.title];
      if (!mapped) continue; // reported by "every resource heading of the seed has its schema"
      const owner = () => locate(doc, { $ref: `#/components/schemas/${mapped.schema}` }, '');

      describe(`${resource.title} → ${mapped.schema}`, () => {
        const table = onlyTable(resource);
        for (const row of table.rows) {
          const notes = row['Notes'] ?? '';
          const field: SeedField = { name: cell(row, 'Field'), type: cell(row, 'Type') };
          if (/^optional\b/.test(notes)) field.required = false;
          else if (mapped.record) field.required = true;
          if (row['Default']) field.default = { value: seedDefault(row['Default']) };
          defineFieldCheck(`${mapped.schema}.${field.name}`, field, owner, resourceNamed, doc);

          // Fields of a nested object that the Notes list ("Fields: name (string, always present)").
          for (const nested of fieldsInNotes(notes)) {
            const sub: SeedField = { name: nested.name, type: nested.type };
            if (nested.presence === 'always') sub.required = true;
            else if (nested.presence === 'optional') sub.required = false;
            else if (mapped.record) sub.required = true;
            const nestedOwner = () => nestedObject(doc, owner(), field);
            defineFieldCheck(`${mapped.schema}.${field.name}.${sub.name}`, sub, nestedOwner, resourceNamed, doc);
          }
        }
      });
    }
  });

  it('every field allowed to be null beyond the seed is still a seed field', () => {
    // Runs after the resource checks above (vitest keeps declaration order within a file).
    expect([...ALSO_NULL].filter((label) => !alsoNullUsed.has(label))).toEqual([]);
  });

  describe('endpoints', () => {
    for (const endpoint of endpointSections) {
      describe(endpoint.title, () => defineEndpointChecks(endpoint, doc));
    }
  });

  describe('authentication', () => {
    for (const row of onlyTable(section(sections, 'Authentication')).rows) {
      const key = cell(row, 'Operation');
      const scheme = cell(row, 'Scheme');
      it(`${key}: ${scheme}`, () => expect(securityProblems(doc, key, scheme)).toEqual([]));
    }
  });
}

function defineEndpointChecks(endpoint: MarkdownSection, doc: OpenApiDocument) {
  const key = endpoint.title;
  const title = ENDPOINT_TITLE.exec(key);
  const named = resourceNamer(SORT_ITEM_OF[key] ? { 'sort item': SORT_ITEM_OF[key] } : {});
  const method = (title?.[1] ?? '').toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const path = title?.[2] ?? '';
  const pointer = operationPointer(method, path);
  const operation = (): OperationObject => {
    const op = doc.paths[path]?.[method];
    if (!op) throw new Error(`${pointer}: the spec has no ${key}`);
    return op;
  };

  it('is an operation of the spec', () => {
    expect(title, `"${key}" is not "METHOD /path"`).not.toBeNull();
    expect(doc.paths[path]?.[method], `${pointer} is missing`).toBeDefined();
  });

  const authentication = /Authentication: (\w+)\./.exec(endpoint.prose)?.[1];
  it(`authentication: ${authentication ?? '(not stated)'}`, () => {
    expect(authentication, 'the section states no "Authentication: <scheme>."').toBeDefined();
    expect(securityProblems(doc, key, authentication!)).toEqual([]);
  });

  // Request body: one table of fields, or the words "No request body".
  if (endpoint.tables.length > 1) throw new Error(`seed section "${key}" has ${endpoint.tables.length} tables, expected at most 1`);
  const table = endpoint.tables[0];
  if (table) {
    const body = (): Located => {
      const requestBody = operation().requestBody;
      if (!requestBody) throw new Error(`${pointer}/requestBody: missing`);
      const media = deref(doc, requestBody).content['application/json'];
      if (!media?.schema) throw new Error(`${pointer}/requestBody: no application/json schema`);
      return locate(doc, media.schema, `${pointer}/requestBody/content/application~1json/schema`);
    };
    for (const row of table.rows) {
      const field: SeedField = { name: cell(row, 'Field'), type: cell(row, 'Type'), required: yesNo(cell(row, 'Required')) };
      if (row['Default']) field.default = { value: seedDefault(row['Default']) };
      defineFieldCheck(`request body.${field.name}`, field, body, named, doc);
    }
  } else {
    it('has no request body', () => {
      expect(endpoint.prose, 'the section has neither a request table nor "No request body"').toMatch(/No request body\./);
      expect(operation().requestBody, `${pointer}/requestBody`).toBeUndefined();
    });
  }

  for (const [, name, type, presence] of endpoint.prose.matchAll(/Path parameter: (\w+) \(([^,)]+), (required|optional)\)/g)) {
    it(`path parameter ${name}: ${type}, ${presence}`, () => {
      const pathItem = doc.paths[path] ?? {};
      const parameters = [...(pathItem.parameters ?? []), ...(operation().parameters ?? [])].map((p) => deref<ParameterObject>(doc, p));
      const parameter: (ParameterObject & { schema?: unknown }) | undefined = parameters.find((p) => p.in === 'path' && p.name === name);
      expect(parameter, `${pointer}/parameters: no path parameter ${name}`).toBeDefined();
      expect(parameter!.required === true, `${pointer}/parameters/${name}/required`).toBe(presence === 'required');
      expect(typeMismatches(doc, seedTypeToSchema(type!, named), parameter!.schema, `${pointer}/parameters/${name}/schema`)).toEqual([]);
    });
  }

  const response = RESPONSE_BODY.exec(endpoint.prose);
  if (response) {
    const [, status, name, article, noun, required] = response;
    // "an array of Object version records" → "Object version[]"; "Router model entries" → "Router model entry".
    const resource = noun!.replace(/ records?$/, '').replace(/ies$/, 'y');
    const field: SeedField = { name: name!, type: article === 'an array of' ? `${resource}[]` : resource };
    if (required) field.required = true;
    for (const code of status ? [status] : successCodes(doc, path, method)) {
      const owner = () => responseSchema(doc, operation(), `${pointer}/responses/${code}`, code);
      defineFieldCheck(`response ${code}.${field.name}`, field, owner, named, doc);
    }
  } else {
    it('leaves the success body unstated', () => {
      expect(endpoint.prose, 'the section neither describes the response body nor says it is not shown').toMatch(/body: not shown/);
    });
  }

  const failure = /fails validation returns the (.+?)\./.exec(endpoint.prose)?.[1];
  if (failure) {
    it(`answers a failed validation with the ${failure}`, () => {
      const expected = seedTypeToSchema(failure, named);
      const errorCodes = Object.keys(operation().responses).filter((code) => /^4/.test(code));
      const matching = errorCodes.filter((code) => {
        const media = deref<ResponseObject>(doc, operation().responses[code]!).content?.['application/json'];
        return media?.schema !== undefined && typeMismatches(doc, expected, media.schema, '').length === 0;
      });
      expect(matching, `${pointer}/responses: no 4xx answer whose body is ${String(expected.$ref)}`).not.toEqual([]);
    });
  }
}

/**
 * Fields the spec deliberately also accepts as null. The seed gives their type without "or null"
 * but says nothing against null; ART sends null for these by default, so refusing it would
 * break real ART clients; and the Weave Python SDK's pydantic models send every unset optional
 * field as null (issue 11: null is "not given"). The check then expects
 * exactly "<seed type> or null": the allowance cannot silently widen.
 */
const ALSO_NULL: ReadonlySet<string> = new Set([
  'Trajectory.final_policy_version',
  'Trajectory.initial_policy_version',
  'Trajectory.tools',
  'Tool.function.strict',
  'ObjectVersionFilter.latest_only',
  'ObjectVersionFilter.object_ids',
  'TableRowFilter.row_digests',
  'TableSortItem.order',
]);
const alsoNullUsed = new Set<string>();

/** One test per field: present, of the seed's type, required as the seed says, with its default. */
function defineFieldCheck(label: string, field: SeedField, owner: () => Located, named: SchemaNamer, doc: OpenApiDocument) {
  const presence = field.required === undefined ? '' : field.required ? ', required' : ', optional';
  const withDefault = field.default ? `, default ${JSON.stringify(field.default.value)}` : '';
  it(`${label}: ${field.type}${presence}${withDefault}`, () => {
    const { schema, at } = owner();
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const propertyAt = `${at}/properties/${field.name}`;
    expect(Object.keys(properties), `${propertyAt} is missing`).toContain(field.name);
    const property = properties[field.name];

    const seedType = ALSO_NULL.has(label) ? `${field.type} or null` : field.type;
    if (ALSO_NULL.has(label)) alsoNullUsed.add(label);
    const problems = typeMismatches(doc, seedTypeToSchema(seedType, named), property, propertyAt);
    const listed = Array.isArray(schema.required) && schema.required.includes(field.name);
    if (field.required !== undefined && field.required !== listed) {
      problems.push(
        `${at}/required: the seed has ${field.name} ${field.required ? 'required' : 'optional'}, the spec ${listed ? 'lists' : 'does not list'} it`,
      );
    }
    if (field.default) {
      const actual = defaultOf(doc, property);
      if (!isDeepStrictEqual(actual, field.default.value)) {
        problems.push(
          `${propertyAt}/default: expected ${JSON.stringify(field.default.value)}, the spec has ${actual === undefined ? 'none' : JSON.stringify(actual)}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
}

/** Differences between the seed's scheme for an operation and the operation's `security`. */
function securityProblems(doc: OpenApiDocument, key: string, seedScheme: string): string[] {
  const [method = '', path = ''] = key.split(' ');
  const pointer = `${operationPointer(method.toLowerCase(), path)}/security`;
  const op = doc.paths[path]?.[method.toLowerCase() as 'get'];
  if (!op) return [`${pointer}: the spec has no ${key}`];
  if (!(seedScheme in SECURITY_SCHEMES)) return [`unknown seed scheme "${seedScheme}"`];
  const wanted = SECURITY_SCHEMES[seedScheme] ?? null;
  const actual = op.security ?? doc.security ?? [];
  const expected = wanted ? [{ [wanted.name]: [] }] : [];
  const problems: string[] = [];
  if (!isDeepStrictEqual(actual, expected))
    problems.push(`${pointer}: expected ${JSON.stringify(expected)}, the spec has ${JSON.stringify(actual)}`);
  if (wanted) {
    // The name alone proves little; the scheme it names must be the seed's HTTP scheme.
    const definition = doc.components.securitySchemes[wanted.name];
    if (definition?.type !== 'http' || definition.scheme?.toLowerCase() !== wanted.scheme) {
      problems.push(
        `#/components/securitySchemes/${wanted.name}: expected http ${wanted.scheme}, the spec has ${JSON.stringify(definition)}`,
      );
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Small readers of the seed and the spec.

/** `#/paths/~1call~1read/post`: where an operation is, as the failure messages name it. */
function operationPointer(method: string, path: string): string {
  return `#/paths/${escapeJsonPointer(path)}/${method}`;
}

function section(sections: MarkdownSection[], title: string): MarkdownSection {
  const found = sections.find((s) => s.title === title);
  if (!found) throw new Error(`the seed has no section "${title}"`);
  return found;
}

function onlyTable(s: MarkdownSection): MarkdownTable {
  if (s.tables.length !== 1) throw new Error(`seed section "${s.title}" has ${s.tables.length} tables, expected 1`);
  return s.tables[0]!;
}

function cell(row: Record<string, string>, column: string): string {
  const value = row[column];
  if (value === undefined || value === '') throw new Error(`seed row ${JSON.stringify(row)} has no ${column}`);
  return value;
}

function yesNo(text: string): boolean {
  if (text === 'yes' || text === 'no') return text === 'yes';
  throw new Error(`Required is "${text}", expected yes or no`);
}

/** The seed's Default cell as a JSON value ("empty array" → [], "false" → false, "0" → 0). */
function seedDefault(text: string): unknown {
  if (text === 'empty array') return [];
  if (text === 'empty object') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Seed names of resources ("Object version", "ObjSchema", "Tool") → component schema names. */
function resourceNamer(extra: Record<string, string> = {}): SchemaNamer {
  const names = new Map<string, string>();
  for (const [heading, { schema }] of Object.entries(RESOURCES)) {
    const [, label, name] = /^(.*?)(?: \((\w+)\))?$/.exec(heading)!;
    names.set(label!.toLowerCase(), schema);
    if (name) names.set(name.toLowerCase(), schema);
  }
  for (const [seedName, schema] of Object.entries(extra)) names.set(seedName.toLowerCase(), schema);
  return (seedName) => names.get(seedName.toLowerCase());
}

function locate(doc: OpenApiDocument, schema: unknown, at: string): Located {
  let current = schema;
  let where = at;
  for (let hops = 0; isReference(current); hops++) {
    if (hops > 16) throw new Error(`$ref loop at ${current.$ref}`);
    where = current.$ref;
    current = resolvePointer(doc, current.$ref);
  }
  return { schema: current as JsonSchema, at: where };
}

/** The object a Notes list describes: the field's own schema, or its items for "object[]". */
function nestedObject(doc: OpenApiDocument, parent: Located, field: SeedField): Located {
  const property = ((parent.schema.properties ?? {}) as Record<string, unknown>)[field.name];
  const at = `${parent.at}/properties/${field.name}`;
  if (property === undefined) throw new Error(`${at} is missing`);
  if (!field.type.endsWith('[]')) return locate(doc, property, at);
  const array = locate(doc, property, at);
  return locate(doc, array.schema.items, `${array.at}/items`);
}

function responseSchema(doc: OpenApiDocument, op: OperationObject, at: string, code: string): Located {
  const response = op.responses[code];
  if (!response) throw new Error(`${at}: missing`);
  const media = deref<ResponseObject>(doc, response).content?.['application/json'];
  if (!media?.schema) throw new Error(`${at}: no application/json body`);
  return locate(doc, media.schema, `${at}/content/application~1json/schema`);
}

function successCodes(doc: OpenApiDocument, path: string, method: string): string[] {
  const op = doc.paths[path]?.[method as 'get'];
  const codes = Object.keys(op?.responses ?? {}).filter((code) => /^2/.test(code));
  // An empty list would define no test at all; name a code that fails loudly instead.
  return codes.length > 0 ? codes : ['2xx (none documented)'];
}

/** `default` on the property itself, else on the schema its `$ref` names (3.1 allows either). */
function defaultOf(doc: OpenApiDocument, property: unknown): unknown {
  if (typeof property === 'object' && property !== null && 'default' in property) return property.default;
  return isReference(property) ? defaultOf(doc, resolvePointer(doc, property.$ref)) : undefined;
}
