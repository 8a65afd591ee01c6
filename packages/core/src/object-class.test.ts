import { describe, expect, it } from 'vitest';
import { isValidObjectId, objectClasses, objectKind } from './object-class.ts';

describe('objectKind', () => {
  it.each([
    [{ _type: 'Op', name: 'x' }, 'op'],
    [{ _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': 'abc' }, load_op: 'NO_LOAD_OP' }, 'op'],
    // weave_type wins over _type whenever both are present
    [{ _type: 'Op', weave_type: { type: 'Dataset' } }, 'object'],
    [{ _type: 'Op', weave_type: 'not a dict' }, 'object'],
    // weave_type alone is ignored: Weave only looks at it when _type exists
    [{ weave_type: { type: 'Op' } }, 'object'],
    [{ _type: 'Dataset' }, 'object'],
    [{ type: 'Op' }, 'object'],
    [['Op'], 'object'],
    ['Op', 'object'],
    [null, 'object'],
  ] as const)('%j → %s', (val, kind) => {
    expect(objectKind(val)).toBe(kind);
  });
});

describe('objectClasses', () => {
  it('direct Object subclass: base and leaf are the class itself', () => {
    expect(objectClasses({ _class_name: 'Dataset', _bases: ['Object', 'BaseModel'] })).toEqual({
      base_object_class: 'Dataset',
      leaf_object_class: 'Dataset',
    });
  });

  it('deeper subclass: base is the class just above Object', () => {
    expect(objectClasses({ _class_name: 'MyModel', _bases: ['Model', 'Object', 'BaseModel'] })).toEqual({
      base_object_class: 'Model',
      leaf_object_class: 'MyModel',
    });
    expect(objectClasses({ _class_name: 'Leaf', _bases: ['Mid', 'Scorer', 'BaseObject', 'BaseModel'] })).toEqual({
      base_object_class: 'Scorer',
      leaf_object_class: 'Leaf',
    });
  });

  it.each([
    [{ _class_name: 'X', _bases: ['BaseModel'] }],
    [{ _class_name: 'X', _bases: ['Object', 'Other'] }],
    [{ _class_name: 'X', _bases: ['Thing', 'BaseModel'] }],
    [{ _class_name: 'X', _bases: 'Object,BaseModel' }],
    [{ _class_name: 'X' }],
    [['Object', 'BaseModel']],
    [null],
  ])('no classes for %j', (val) => {
    expect(objectClasses(val)).toEqual({ base_object_class: null, leaf_object_class: null });
  });

  it('a missing class name leaves the leaf (and a 2-base base) null', () => {
    expect(objectClasses({ _bases: ['Object', 'BaseModel'] })).toEqual({
      base_object_class: null,
      leaf_object_class: null,
    });
    expect(objectClasses({ _bases: ['Model', 'Object', 'BaseModel'] })).toEqual({
      base_object_class: 'Model',
      leaf_object_class: null,
    });
  });
});

describe('isValidObjectId', () => {
  it.each(['my-dataset', 'v1.2_final', 'A', '名前', 'café', '①Ⅻ٣', '_', 'x'.repeat(128)])('accepts %j', (id) => {
    expect(isValidObjectId(id)).toBe(true);
  });

  it.each(['', 'a b', 'a/b', 'a:b', 'x'.repeat(129), 'e\u0301', 'zero\u200dwidth', '😀', 'tab\t'])('rejects %j', (id) => {
    expect(isValidObjectId(id)).toBe(false);
  });

  it('counts length in code points, as Python does', () => {
    const astralLetter = '𝐀'; // U+1D400, a letter outside the BMP (2 UTF-16 units)
    expect(isValidObjectId(astralLetter.repeat(128))).toBe(true);
    expect(isValidObjectId(astralLetter.repeat(129))).toBe(false);
  });
});
