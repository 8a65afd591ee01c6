import { describe, expect, it } from 'vitest';
import { describeField, keyHints, parseValue, rawOf, scorerOf, specNameOf, valueForKey } from './annotation-fields.ts';

describe('describeField', () => {
  it('reads bounded numbers, with a scale of whole steps when there are at most ten', () => {
    expect(describeField({ type: 'integer', minimum: 1, maximum: 5 })).toEqual({
      kind: 'number',
      integer: true,
      minimum: 1,
      maximum: 5,
      steps: [1, 2, 3, 4, 5],
    });
    expect(describeField({ type: 'number', minimum: 0, maximum: 1 })).toMatchObject({ kind: 'number', integer: false, steps: [0, 1] });
    expect(describeField({ type: 'integer', minimum: 0, maximum: 100 })).not.toHaveProperty('steps');
    expect(describeField({ type: 'number', minimum: 0.5, maximum: 2.5 })).not.toHaveProperty('steps');
    expect(describeField({ type: 'number' })).toEqual({ kind: 'number', integer: false });
    expect(describeField({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 4 })).toMatchObject({ steps: [1, 2, 3] });
    expect(describeField({ type: ['integer', 'null'], minimum: 1, maximum: 3 })).toMatchObject({ kind: 'number', steps: [1, 2, 3] });
  });

  it('reads enums, booleans and free text', () => {
    expect(describeField({ type: 'string', enum: ['good', 'bad'] })).toEqual({ kind: 'enum', options: ['good', 'bad'] });
    expect(describeField({ enum: [1, 2, null] })).toEqual({ kind: 'enum', options: [1, 2] });
    expect(describeField({ type: 'boolean' })).toEqual({ kind: 'boolean' });
    expect(describeField({ type: 'string', maxLength: 200 })).toEqual({ kind: 'string', maxLength: 200 });
    expect(describeField({ type: 'string' })).toEqual({ kind: 'string' });
  });

  it('says what it cannot offer rather than guessing', () => {
    expect(describeField(null)).toMatchObject({ kind: 'unsupported' });
    expect(describeField({ type: 'object' })).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('"object"') });
    expect(describeField({ enum: [{ a: 1 }] })).toMatchObject({ kind: 'unsupported' });
    expect(describeField({ enum: [] })).toMatchObject({ kind: 'unsupported' });
  });
});

describe('parseValue', () => {
  const scale = describeField({ type: 'integer', minimum: 1, maximum: 5 });
  it('takes blank as not filled', () => {
    expect(parseValue(scale, '')).toEqual({ ok: true, value: undefined });
    expect(parseValue(describeField({ type: 'string' }), '   ')).toEqual({ ok: true, value: undefined });
  });
  it('checks numbers: form, whole, bounds', () => {
    expect(parseValue(scale, '4')).toEqual({ ok: true, value: 4 });
    expect(parseValue(scale, ' 2 ')).toEqual({ ok: true, value: 2 });
    expect(parseValue(scale, '4.5')).toEqual({ ok: false, error: 'Must be a whole number.' });
    expect(parseValue(scale, '6')).toEqual({ ok: false, error: 'Must be at most 5.' });
    expect(parseValue(scale, '0')).toEqual({ ok: false, error: 'Must be at least 1.' });
    expect(parseValue(scale, '4x')).toEqual({ ok: false, error: 'Must be a number.' });
    expect(parseValue(scale, 'Infinity')).toEqual({ ok: false, error: 'Must be a number.' });
    const real = describeField({ type: 'number', exclusiveMinimum: 0, maximum: 1 });
    expect(parseValue(real, '0.25')).toEqual({ ok: true, value: 0.25 });
    expect(parseValue(real, '.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseValue(real, '0')).toEqual({ ok: false, error: 'Must be more than 0.' });
    expect(parseValue(real, '1e0')).toEqual({ ok: true, value: 1 });
  });
  it('checks enums and booleans by their text', () => {
    const e = describeField({ enum: ['good', 'bad', 3] });
    expect(parseValue(e, 'bad')).toEqual({ ok: true, value: 'bad' });
    expect(parseValue(e, '3')).toEqual({ ok: true, value: 3 });
    expect(parseValue(e, 'meh')).toEqual({ ok: false, error: 'Must be one of good, bad, 3.' });
    const b = describeField({ type: 'boolean' });
    expect(parseValue(b, 'false')).toEqual({ ok: true, value: false });
    expect(parseValue(b, 'yes')).toMatchObject({ ok: false });
  });
  it('counts characters as code points, as JSON Schema does', () => {
    const s = describeField({ type: 'string', maxLength: 3 });
    expect(parseValue(s, '😀😀😀')).toEqual({ ok: true, value: '😀😀😀' });
    expect(parseValue(s, 'abcd')).toEqual({ ok: false, error: 'At most 3 characters (4 now).' });
    expect(parseValue(describeField({ type: 'string', minLength: 2 }), 'a')).toMatchObject({ ok: false });
  });
  it('refuses a value for a field it cannot offer', () => {
    expect(parseValue(describeField({ type: 'object' }), '{}')).toMatchObject({ ok: false });
  });
});

describe('number keys', () => {
  it('pick a scale within 0..9 by its own digits', () => {
    const d = describeField({ type: 'integer', minimum: 1, maximum: 5 });
    expect(keyHints(d).map((h) => h.key)).toEqual(['1', '2', '3', '4', '5']);
    expect(valueForKey(d, '4')).toBe(4);
    expect(valueForKey(d, '6')).toBeUndefined();
    expect(valueForKey(d, '0')).toBeUndefined();
    const zeroToNine = describeField({ type: 'integer', minimum: 0, maximum: 9 });
    expect(valueForKey(zeroToNine, '0')).toBe(0);
    expect(valueForKey(zeroToNine, '9')).toBe(9);
  });
  it('pick any other scale by place, 0 for the tenth', () => {
    const d = describeField({ type: 'integer', minimum: -2, maximum: 2 });
    expect(keyHints(d)).toEqual([
      { key: '1', value: -2 },
      { key: '2', value: -1 },
      { key: '3', value: 0 },
      { key: '4', value: 1 },
      { key: '5', value: 2 },
    ]);
    const tens = describeField({ type: 'integer', minimum: 11, maximum: 20 });
    expect(valueForKey(tens, '1')).toBe(11);
    expect(valueForKey(tens, '0')).toBe(20);
  });
  it('pick an enum’s options and a boolean by place; nothing for free fields', () => {
    const e = describeField({ enum: ['a', 'b', 'c'] });
    expect(valueForKey(e, '2')).toBe('b');
    expect(valueForKey(e, '4')).toBeUndefined();
    const many = describeField({ enum: Array.from({ length: 12 }, (_, i) => `o${i}`) });
    expect(valueForKey(many, '0')).toBe('o9');
    expect(keyHints(many)).toHaveLength(10);
    expect(valueForKey(describeField({ type: 'boolean' }), '1')).toBe(true);
    expect(valueForKey(describeField({ type: 'boolean' }), '2')).toBe(false);
    expect(keyHints(describeField({ type: 'string' }))).toEqual([]);
    expect(keyHints(describeField({ type: 'number', minimum: 0, maximum: 100 }))).toEqual([]);
  });
});

describe('scorers', () => {
  it('names a scorer by its ref’s object name, the name feedback types must carry', () => {
    const ref = 'weave:///acme/p/object/helpfulness:abc123';
    expect(specNameOf(ref)).toBe('helpfulness');
    expect(specNameOf('weave:///acme/p/op/x:1')).toBeUndefined();
    expect(scorerOf(ref, { name: 'Helpful?', description: 'How helpful', field_schema: { type: 'boolean' } })).toEqual({
      ref,
      name: 'helpfulness',
      description: 'How helpful',
      field: { kind: 'boolean' },
    });
    expect(scorerOf(ref, { name: 'x' }).field).toMatchObject({ kind: 'unsupported' });
  });
  it('turns stored values back into the form’s text', () => {
    expect(rawOf(4)).toBe('4');
    expect(rawOf(false)).toBe('false');
    expect(rawOf('ok')).toBe('ok');
    expect(rawOf(null)).toBe('');
    expect(rawOf({ a: 1 })).toBe('{"a":1}');
  });
});
