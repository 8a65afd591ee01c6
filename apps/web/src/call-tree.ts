// A trace's calls as a tree (children by start time), with each call's place on the trace's timeline.
import type { CallSchema } from '@weft/types';

export interface CallNode {
  call: CallSchema;
  children: CallNode[];
  depth: number;
}

/** Roots first (a call whose parent is not in the trace counts as a root), children by start. */
export function buildTree(calls: readonly CallSchema[]): CallNode[] {
  const byId = new Map(calls.map((c) => [c.id, { call: c, children: [] as CallNode[], depth: 0 }]));
  const roots: CallNode[] = [];
  for (const node of byId.values()) {
    const parent = node.call.parent_id === undefined ? undefined : byId.get(node.call.parent_id);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const byStart = (a: CallNode, b: CallNode) => a.call.started_at.localeCompare(b.call.started_at) || a.call.id.localeCompare(b.call.id);
  // Iterative, so a deep trace cannot overflow the stack.
  const stack = roots.sort(byStart).map((n) => n);
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.children.sort(byStart);
    for (const child of node.children) {
      child.depth = node.depth + 1;
      stack.push(child);
    }
  }
  return roots;
}

export interface Span {
  /** Fractions of the trace's duration, 0..1. */
  left: number;
  width: number;
}

export function timeline(calls: readonly CallSchema[]): (call: CallSchema) => Span {
  const starts = calls.map((c) => Date.parse(c.started_at));
  const ends = calls.map((c) => Date.parse(c.ended_at ?? c.started_at));
  const t0 = Math.min(...starts);
  const total = Math.max(1, Math.max(...ends, ...starts) - t0);
  return (call) => {
    const start = Date.parse(call.started_at) - t0;
    const end = Date.parse(call.ended_at ?? call.started_at) - t0;
    return { left: start / total, width: Math.max(0, end - start) / total };
  };
}
