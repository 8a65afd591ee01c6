import { describe, expect, it } from 'vitest';
import { isoToLocal, localToIso, parseScore, tracesQuery } from './traces-query.ts';

describe('tracesQuery', () => {
  it('is no query without conditions, one condition alone, several under $and', () => {
    expect(tracesQuery({ status: '', from: '', to: '' })).toBeUndefined();
    expect(tracesQuery({ status: 'error', from: '', to: '' })).toEqual({
      $expr: { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] },
    });
    expect(tracesQuery({ status: '', from: '2026-11-25T08:00:00.000Z', to: '2026-11-25T09:00:00.000Z' })).toEqual({
      $expr: {
        $and: [
          { $gte: [{ $getField: 'started_at' }, { $literal: '2026-11-25T08:00:00.000Z' }] },
          { $not: [{ $gt: [{ $getField: 'started_at' }, { $literal: '2026-11-25T09:00:00.000Z' }] }] },
        ],
      },
    });
  });

  it('round-trips a datetime-local value through the URL’s ISO time', () => {
    expect(isoToLocal(localToIso('2026-11-25T08:30'))).toBe('2026-11-25T08:30');
    expect(localToIso('')).toBe('');
  });

  it('filters on an annotation’s newest value: numbers as numbers, labels as text', () => {
    const value = { $getField: 'feedback.[wandb.annotation.quality].payload.value' };
    const asNumber = { $convert: { input: value, to: 'double' } };
    expect(tracesQuery({ status: '', from: '', to: '', score: 'quality>=4' })).toEqual({ $expr: { $gte: [asNumber, { $literal: 4 }] } });
    expect(tracesQuery({ status: '', from: '', to: '', score: 'quality<2.5' })).toEqual({
      $expr: { $not: [{ $gte: [asNumber, { $literal: 2.5 }] }] },
    });
    expect(tracesQuery({ status: '', from: '', to: '', score: 'quality=bad' })).toEqual({
      $expr: { $eq: [{ $getField: 'feedback.[wandb.annotation.quality].payload.value' }, { $literal: 'bad' }] },
    });
    expect(tracesQuery({ status: 'error', from: '', to: '', score: 'quality>3' })).toEqual({
      $expr: { $and: [{ $gt: [asNumber, { $literal: 3 }] }, { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] }] },
    });
  });

  it('reads a score condition from the URL, and nothing from a malformed one', () => {
    expect(parseScore('v1.quality<=5')).toEqual({ name: 'v1.quality', op: '<=', value: '5' });
    expect(parseScore('label=needs review')).toEqual({ name: 'label', op: '=', value: 'needs review' });
    expect(parseScore('quality')).toBeUndefined();
    expect(parseScore('has space>=1')).toBeUndefined();
    expect(tracesQuery({ status: '', from: '', to: '', score: '>=4' })).toBeUndefined();
  });
});

describe('tracesQuery text search', () => {
  it('is a case-insensitive $contains on the chosen field, and nothing without text or field', () => {
    expect(tracesQuery({ status: '', from: '', to: '', search: ' Password ', searchIn: 'inputs.question' })).toEqual({
      $expr: { $contains: { input: { $getField: 'inputs.question' }, substr: { $literal: 'Password' }, case_insensitive: true } },
    });
    expect(tracesQuery({ status: '', from: '', to: '', search: '  ', searchIn: 'inputs.question' })).toBeUndefined();
    expect(tracesQuery({ status: '', from: '', to: '', search: 'x', searchIn: '' })).toBeUndefined();
    expect(tracesQuery({ status: 'error', from: '', to: '', search: 'x', searchIn: 'output' })?.$expr).toEqual({
      $and: [
        { $contains: { input: { $getField: 'output' }, substr: { $literal: 'x' }, case_insensitive: true } },
        { $eq: [{ $getField: 'summary.weave.status' }, { $literal: 'error' }] },
      ],
    });
  });
});
