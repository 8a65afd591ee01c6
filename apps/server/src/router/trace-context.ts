// Which trace a router request belongs to: the caller's W3C `traceparent` (an OTel-instrumented
// caller) or Weft's own X-Weft-Trace-Id / X-Weft-Parent-Call-Id (a Weave SDK caller, whose ids are
// UUIDv7 strings). Weave has no propagation header of its own (reference router-gateway §4.3).
import type { IncomingHttpHeaders } from 'node:http';
import { isValidSpanId, isValidTraceId } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { invalidField } from '@weft/core';

export interface ParentContext {
  trace_id: string;
  /** Undefined: the call is a root of the named trace. */
  parent_id: string | undefined;
}

/** The spec's bound on a call's ids (calls.yaml StartedCall). */
const MAX_ID = 128;
// Ids travel into stored rows and back out in URLs: printable ASCII without spaces only.
const ID = /^[\x21-\x7e]+$/;

/**
 * The parent of the router's call, or undefined for a new trace.
 *
 * Weft's headers win over `traceparent` when both are sent: they name Weave calls, which is what
 * the recorded call lives among, while a `traceparent` may come from an unrelated proxy or APM
 * agent on the way. X-Weft-Parent-Call-Id alone is refused (the trace cannot be told from it
 * without a read before the answer), as are malformed X-Weft ids.
 *
 * A malformed `traceparent` is ignored, as W3C Trace Context requires of every receiver (§4.3:
 * "the vendor MUST ... restart the trace"); its hex ids are used verbatim, as Weft's OTLP ingest
 * stores span ids (so an OTel-traced caller's spans and the router's call share one trace).
 */
export function parseParent(headers: IncomingHttpHeaders): ParentContext | undefined {
  const traceId = weftId(headers, 'x-weft-trace-id');
  const parentId = weftId(headers, 'x-weft-parent-call-id');
  if (traceId !== undefined) return { trace_id: traceId, parent_id: parentId };
  if (parentId !== undefined) {
    throw invalidField(['header', 'X-Weft-Parent-Call-Id'], 'X-Weft-Parent-Call-Id needs X-Weft-Trace-Id (the trace of that call)');
  }
  // Node joins a repeated traceparent with ", ": that value does not parse, and W3C (§3.2) treats a
  // repeated traceparent as invalid anyway.
  const traceparent = headers.traceparent;
  if (typeof traceparent !== 'string') return undefined;
  const parsed = parseTraceParent(traceparent.trim());
  if (!parsed || !isValidTraceId(parsed.traceId) || !isValidSpanId(parsed.spanId)) return undefined;
  return { trace_id: parsed.traceId, parent_id: parsed.spanId };
}

function weftId(headers: IncomingHttpHeaders, name: 'x-weft-trace-id' | 'x-weft-parent-call-id'): string | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  const label = name === 'x-weft-trace-id' ? 'X-Weft-Trace-Id' : 'X-Weft-Parent-Call-Id';
  if (Array.isArray(raw)) throw invalidField(['header', label], `${label} was sent more than once`);
  const value = raw.trim();
  if (value === '' || value.length > MAX_ID || !ID.test(value)) {
    throw invalidField(['header', label], `${label} must be 1 to ${MAX_ID} printable characters without spaces`);
  }
  return value;
}
