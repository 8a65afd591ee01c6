import { describe, expect, it } from 'vitest';
import { isoToLocal, localToIso, tracesQuery } from './traces-query.ts';

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
});
