// Ref parsing with the rules of Weave's refs_internal.py, for the refs feedback points with.
import { describe, expect, it } from 'vitest';
import { parseWeaveRef } from './weave-ref.ts';

describe('parseWeaveRef', () => {
  it('parses object, op, call and table refs', () => {
    expect(parseWeaveRef('weave:///acme/bot/op/answer:abc')).toEqual({
      kind: 'op',
      projectId: 'acme/bot',
      name: 'answer',
      version: 'abc',
      extra: [],
    });
    expect(parseWeaveRef('weave:///acme/bot/object/ds:abc/attr/rows/id/r%2F1')).toEqual({
      kind: 'object',
      projectId: 'acme/bot',
      name: 'ds',
      version: 'abc',
      extra: ['attr', 'rows', 'id', 'r/1'],
    });
    expect(parseWeaveRef('weave:///acme/bot/object/ds:abc/')).toMatchObject({ kind: 'object', extra: [] });
    expect(parseWeaveRef('weave:///acme/bot/call/0197')).toEqual({ kind: 'call', projectId: 'acme/bot', id: '0197' });
    expect(parseWeaveRef('weave:///acme/bot/table/abc')).toEqual({ kind: 'table', projectId: 'acme/bot', digest: 'abc' });
  });

  it('says why a string is not a ref', () => {
    for (const bad of [
      'weave://acme/bot/op/a:b', // two slashes
      'weave-trace-internal:///p/op/a:b', // internal refs never reach the wire
      'weave:///acme',
      'weave:///acme/bot/thing/a:b',
      'weave:///acme/bot/op/a',
      'weave:///acme/bot/op/a:b:c',
      'weave:///acme/bot/op/:b',
      'weave:///acme/bot/object/a:b/attr',
      'weave:///acme/bot/object/a:b/edge/x',
      'weave:///acme/bot/object/a:b/index/x',
      'weave:///acme/bot/call/',
    ]) {
      expect(parseWeaveRef(bad), bad).toEqual({ error: expect.stringContaining(`Invalid ref ${bad}`) });
    }
  });
});
