// Turns express-openapi-validator's errors into the seed's 422 body `{detail:[{loc,msg,type}]}`.
// `loc` is a string array starting with where the value was (`body`, `path`, `query`, `header`);
// `type` uses FastAPI's names where one fits, so ART and Weave clients see familiar values.
import type { ValidationDetail } from '@weft/core';

export type { ValidationDetail };

interface ValidatorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'float_type',
  integer: 'int_type',
  boolean: 'bool_type',
  array: 'list_type',
  object: 'dict_type',
  null: 'none_required',
};

function typeName(item: ValidatorItem): string {
  const code = (item.errorCode ?? 'value_error').replace(/\.openapi\.(validation|requestValidation)$/, '');
  if (code === 'required') return 'missing';
  if (code === 'type') {
    const m = /must be (\w+)/.exec(item.message ?? '');
    return (m && TYPE_NAMES[m[1]!]) ?? 'type_error';
  }
  return code;
}

const LOCATIONS: Record<string, string> = { params: 'path', headers: 'header', query: 'query', body: 'body' };

function location(path: string | undefined, message: string | undefined): string[] {
  const parts = (path ?? '').split('/').filter(Boolean);
  // The validator reports a missing property at its parent; name the property itself, as FastAPI does.
  const missing = /must have required property '([^']+)'/.exec(message ?? '');
  if (missing && parts[parts.length - 1] !== missing[1]) parts.push(missing[1]!);
  // The validator says `params`/`headers`; the seed's body (after FastAPI) says `path`/`header`.
  if (parts[0] !== undefined) parts[0] = LOCATIONS[parts[0]] ?? parts[0];
  return parts.map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toValidationDetails(items: readonly ValidatorItem[]): ValidationDetail[] {
  const seen = new Set<string>();
  const out: ValidationDetail[] = [];
  for (const item of items) {
    const detail = { loc: location(item.path, item.message), msg: item.message ?? 'invalid value', type: typeName(item) };
    const key = JSON.stringify(detail);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(detail);
    }
  }
  return out;
}
