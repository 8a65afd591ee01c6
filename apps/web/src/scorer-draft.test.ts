import { describe, expect, it } from 'vitest';
import { buildAnnotationSpec, emptyScorer, objectRef } from './scorer-draft.ts';

describe('scorer drafts', () => {
  it('builds the AnnotationSpec of an integer scale with its bounds', () => {
    expect(buildAnnotationSpec({ ...emptyScorer('integer'), name: 'quality', description: ' 1 worst ' })).toEqual({
      ok: true,
      val: {
        _type: 'AnnotationSpec',
        name: 'quality',
        description: '1 worst',
        field_schema: { type: 'integer', minimum: 1, maximum: 5 },
        unique_among_creators: false,
        op_scope: null,
        _class_name: 'AnnotationSpec',
        _bases: ['Object', 'BaseModel'],
      },
    });
  });

  it('builds enums, booleans, texts and unbounded numbers', () => {
    const enumSpec = buildAnnotationSpec({ ...emptyScorer('enum'), name: 'label', options: 'good\n bad \n\nunsure' });
    expect(enumSpec.ok && enumSpec.val.field_schema).toEqual({ type: 'string', enum: ['good', 'bad', 'unsure'] });
    const bool = buildAnnotationSpec({ ...emptyScorer('boolean'), name: 'correct' });
    expect(bool.ok && bool.val.field_schema).toEqual({ type: 'boolean' });
    const text = buildAnnotationSpec({ ...emptyScorer('text'), name: 'why', maxLength: '280' });
    expect(text.ok && text.val.field_schema).toEqual({ type: 'string', maxLength: 280 });
    const num = buildAnnotationSpec({ ...emptyScorer('number'), name: 'score', min: '0' });
    expect(num.ok && num.val.field_schema).toEqual({ type: 'number', minimum: 0 });
  });

  it('refuses what the server or a reviewer could not use, saying why', () => {
    const error = (over: Parameters<typeof buildAnnotationSpec>[0]) => {
      const built = buildAnnotationSpec(over);
      return built.ok ? undefined : built.error;
    };
    expect(error({ ...emptyScorer(), name: 'has space' })).toMatch(/letters, digits/);
    expect(error({ ...emptyScorer(), name: '' })).toMatch(/letters, digits/);
    expect(error({ ...emptyScorer('integer'), name: 'q', min: '1.5' })).toMatch(/whole number/);
    expect(error({ ...emptyScorer('number'), name: 'q', min: 'x' })).toMatch(/must be a number/);
    expect(error({ ...emptyScorer('integer'), name: 'q', min: '5', max: '1' })).toMatch(/above the maximum/);
    expect(error({ ...emptyScorer('enum'), name: 'q', options: 'only' })).toMatch(/two options/);
    expect(error({ ...emptyScorer('enum'), name: 'q', options: 'a\na' })).toMatch(/twice/);
    expect(error({ ...emptyScorer('text'), name: 'q', maxLength: '0' })).toMatch(/at least 1/);
  });

  it('writes the object ref a queue holds', () => {
    expect(objectRef('acme/bot', 'quality', 'abc')).toBe('weave:///acme/bot/object/quality:abc');
  });
});
