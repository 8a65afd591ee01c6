// A call's exception as a reader wants it: type, message and stack. Weave's Python SDK records
// `{"type", "message", "traceback"}` as JSON text; other clients a plain "Type: message" line,
// maybe followed by a stack. Anything else is shown as the message, whole.

export interface ExceptionFacts {
  type?: string;
  message: string;
  stack?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function exceptionFacts(text: string): ExceptionFacts {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, unknown>;
      if (typeof parsed === 'object' && parsed !== null && ('type' in parsed || 'message' in parsed)) {
        const trace = parsed.traceback ?? parsed.stack;
        const stack = Array.isArray(trace) ? trace.filter((l) => typeof l === 'string').join('') : str(trace);
        return { type: str(parsed.type), message: str(parsed.message) ?? '', ...(stack ? { stack: stack.trimEnd() } : {}) };
      }
    } catch {
      // Not JSON after all: a plain text exception that starts with a brace.
    }
  }
  const [first = '', ...rest] = text.split('\n');
  const match = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)?):\s?(.*)$/.exec(first);
  const stack = rest.join('\n').trimEnd();
  if (match && /^[A-Za-z_][\w.]*$/.test(match[1]!)) return { type: match[1], message: match[2]!, ...(stack ? { stack } : {}) };
  return { message: text };
}
