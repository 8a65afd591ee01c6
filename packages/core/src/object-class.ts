/**
 * What Weave derives from an object's `val` when it is stored: its kind and
 * its base/leaf object classes, plus the object-id rule. Ported from the
 * trace server so filters like `base_object_classes: ["Dataset"]` agree.
 */

type Dict = Record<string, unknown>;

function isDict(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Weave's `get_type`: `_type`, unless `weave_type` is also present, in which
 * case `weave_type.type` (custom-serialised objects such as ops saved as
 * code files carry `_type: "CustomWeaveType"` and the real type there).
 */
function weaveType(val: Dict): unknown {
  if (!Object.hasOwn(val, '_type')) return undefined;
  if (Object.hasOwn(val, 'weave_type')) {
    const wt = val.weave_type;
    return isDict(wt) ? wt.type : undefined;
  }
  return val._type;
}

export function objectKind(val: unknown): 'op' | 'object' {
  return isDict(val) && weaveType(val) === 'Op' ? 'op' : 'object';
}

export interface ObjectClasses {
  base_object_class: string | null;
  leaf_object_class: string | null;
}

const NO_CLASSES: ObjectClasses = { base_object_class: null, leaf_object_class: null };

/**
 * Classes exist only for pydantic-backed Weave objects, recognisable by
 * `_bases` ending in [..., "Object" | "BaseObject", "BaseModel"]. The base is
 * the class just above Object (e.g. "Model" for a user's MyModel(Model)), or
 * the class itself when it subclasses Object directly. Python would return a
 * non-string class name as is; we treat it as absent so the type stays honest.
 */
export function objectClasses(val: unknown): ObjectClasses {
  if (!isDict(val)) return NO_CLASSES;
  const bases = val._bases;
  if (!Array.isArray(bases) || bases.length < 2) return NO_CLASSES;
  const n = bases.length;
  if (bases[n - 1] !== 'BaseModel') return NO_CLASSES;
  if (bases[n - 2] !== 'Object' && bases[n - 2] !== 'BaseObject') return NO_CLASSES;
  const leaf = asString(val._class_name);
  const base = n > 2 ? asString(bases[n - 3]) : leaf;
  return { base_object_class: base, leaf_object_class: leaf };
}

function asString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export const MAX_OBJECT_ID_LENGTH = 128;

/**
 * Python's `[\w._-]` on str: \w is letters (L*), numbers (N*) and `_`.
 * Combining marks are deliberately excluded: CPython's \w does not match
 * them, so a decomposed "é" (e + U+0301) is rejected there and must be here.
 * The rare chars Python counts as numeric outside the N categories are not
 * covered; they are not plausible in ids.
 */
const OBJECT_ID = /^[\p{L}\p{N}_.-]+$/u;

/** Non-empty, at most 128 characters (code points, as Python's len counts). */
export function isValidObjectId(id: string): boolean {
  if (id.length === 0) return false;
  if (id.length > MAX_OBJECT_ID_LENGTH && codePointLength(id) > MAX_OBJECT_ID_LENGTH) return false;
  return OBJECT_ID.test(id);
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
