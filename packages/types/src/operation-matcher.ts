// Finds the operation of a request with one map lookup for literal paths and a short list of
// templates per method for the rest, built once at start (not a scan of every route per
// request). Literal segments beat parameters: `/annotation_queues/query` before `/{queue_id}`.

export interface MatchableOperation {
  method: string;
  /** Path template, e.g. `/annotation_queues/{queue_id}`. */
  path: string;
}

export type OperationMatch<Op> =
  | { kind: 'operation'; operation: Op; params: Record<string, string> }
  /** The path exists, but not with this method. */
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export interface OperationMatcher<Op> {
  match(method: string, pathname: string): OperationMatch<Op>;
}

interface Template<Op> {
  regExp: RegExp;
  names: string[];
  literalSegments: number;
  byMethod: Map<string, Op>;
}

const NOT_FOUND = { kind: 'not-found' } as const;

export function createOperationMatcher<Op extends MatchableOperation>(operations: readonly Op[]): OperationMatcher<Op> {
  const literal = new Map<string, Map<string, Op>>();
  const templates = new Map<string, Template<Op>>();
  for (const op of operations) {
    const method = op.method.toUpperCase();
    if (!op.path.includes('{')) {
      const byMethod = literal.get(op.path) ?? new Map<string, Op>();
      byMethod.set(method, op);
      literal.set(op.path, byMethod);
      continue;
    }
    let template = templates.get(op.path);
    if (!template) {
      const names: string[] = [];
      const source = op.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          if (!part.startsWith('{')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(part.slice(1, -1));
          return '([^/]+)';
        })
        .join('');
      const literalSegments = op.path.split('/').filter((s) => s !== '' && !s.startsWith('{')).length;
      template = { regExp: new RegExp(`^${source}$`), names, literalSegments, byMethod: new Map() };
      templates.set(op.path, template);
    }
    template.byMethod.set(method, op);
  }
  // More literal segments first, so the most specific template wins.
  const ordered = [...templates.values()].sort((a, b) => b.literalSegments - a.literalSegments);

  return {
    match(method, pathname) {
      const upper = method.toUpperCase();
      // HEAD is answered by the GET operation, as Express does.
      const wanted = (byMethod: Map<string, Op>) => byMethod.get(upper) ?? (upper === 'HEAD' ? byMethod.get('GET') : undefined);
      const exact = literal.get(pathname);
      if (exact) {
        const op = wanted(exact);
        return op ? { kind: 'operation', operation: op, params: {} } : { kind: 'method-not-allowed', allowed: [...exact.keys()] };
      }
      let allowed: string[] | undefined;
      for (const template of ordered) {
        const m = template.regExp.exec(pathname);
        if (!m) continue;
        const op = wanted(template.byMethod);
        if (!op) {
          allowed ??= [...template.byMethod.keys()];
          continue;
        }
        const params: Record<string, string> = {};
        for (let i = 0; i < template.names.length; i++) params[template.names[i]!] = safeDecode(m[i + 1]!);
        return { kind: 'operation', operation: op, params };
      }
      return allowed ? { kind: 'method-not-allowed', allowed } : NOT_FOUND;
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape stays as sent; the parameter's schema judges it
  }
}
