import { WeftValidationError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { parseParent } from './trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('parseParent', () => {
  it('takes a W3C traceparent: its hex trace id and span id verbatim', () => {
    expect(parseParent({ traceparent: `00-${TRACE}-${SPAN}-01` })).toEqual({ trace_id: TRACE, parent_id: SPAN });
  });

  it('ignores a malformed traceparent, as W3C Trace Context tells receivers to', () => {
    for (const bad of [
      'garbage',
      `00-${TRACE}-${SPAN}`,
      `00-${'0'.repeat(32)}-${SPAN}-01`, // all-zero trace id
      `00-${TRACE}-${'0'.repeat(16)}-01`, // all-zero parent id
      `ff-${TRACE}-${SPAN}-01`, // version ff is invalid
      `00-${TRACE}-${SPAN}-01-extra`, // version 00 has exactly four parts
      `00-${TRACE}-${SPAN}-01, 00-${TRACE}-${SPAN}-01`, // repeated (Node joins repeats with ", ")
    ]) {
      expect(parseParent({ traceparent: bad }), bad).toBeUndefined();
    }
  });

  it('takes the Weft headers (a Weave SDK caller), before a traceparent', () => {
    const headers = { 'x-weft-trace-id': 'trace-uuid', 'x-weft-parent-call-id': 'call-uuid', traceparent: `00-${TRACE}-${SPAN}-01` };
    expect(parseParent(headers)).toEqual({ trace_id: 'trace-uuid', parent_id: 'call-uuid' });
    expect(parseParent({ 'x-weft-trace-id': 'trace-uuid' })).toEqual({ trace_id: 'trace-uuid', parent_id: undefined });
  });

  it('answers undefined without any of them', () => {
    expect(parseParent({})).toBeUndefined();
  });

  it('refuses a parent call without its trace, and malformed Weft ids, naming the header', () => {
    const refused = (headers: Record<string, string>) => {
      try {
        parseParent(headers);
      } catch (err) {
        expect(err).toBeInstanceOf(WeftValidationError);
        return JSON.stringify((err as WeftValidationError).toBody());
      }
      throw new Error('not refused');
    };
    expect(refused({ 'x-weft-parent-call-id': 'call-uuid' })).toContain('X-Weft-Parent-Call-Id');
    expect(refused({ 'x-weft-trace-id': 'a b' })).toContain('X-Weft-Trace-Id');
    expect(refused({ 'x-weft-trace-id': 'x'.repeat(129) })).toContain('X-Weft-Trace-Id');
    expect(refused({ 'x-weft-trace-id': 't', 'x-weft-parent-call-id': '' })).toContain('X-Weft-Parent-Call-Id');
  });
});
