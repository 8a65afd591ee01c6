// A call's kind (call-kind.ts) as a small drawn icon, named for screen readers and on hover.
// Drawn inline: no icon font or image file to fetch, and it follows the text colour schemes.
import type { ReactNode } from 'react';
import { KIND_LABELS, type CallKind } from '../call-kind.ts';

const SHAPES: Record<CallKind, ReactNode> = {
  // A four-pointed spark: generated text.
  llm: <path d="M8 1.5 9.6 6.4 14.5 8 9.6 9.6 8 14.5 6.4 9.6 1.5 8 6.4 6.4Z" fill="currentColor" />,
  // A wrench.
  tool: (
    <path
      d="M10.5 2a3.5 3.5 0 0 0-3.3 4.6L2.4 11.4a1.4 1.4 0 0 0 2 2l4.8-4.8A3.5 3.5 0 0 0 14 5.5l-2 2-2-.5-.5-2 2-2a3.5 3.5 0 0 0-1-.1Z"
      fill="currentColor"
    />
  ),
  // A head and shoulders.
  agent: (
    <>
      <circle cx="8" cy="5" r="3" fill="currentColor" />
      <path d="M2.5 14.5a5.5 5.5 0 0 1 11 0Z" fill="currentColor" />
    </>
  ),
  // A magnifying glass.
  retriever: (
    <>
      <circle cx="6.5" cy="6.5" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m9.5 9.5 4.5 4.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </>
  ),
  // A tick in a box: scored.
  evaluation: (
    <>
      <rect x="1.5" y="1.5" width="13" height="13" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="m4.5 8.2 2.4 2.4 4.6-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </>
  ),
  // A plain function: an outlined circle.
  op: <circle cx="8" cy="8" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />,
};

export function KindIcon({ kind }: { kind: CallKind }) {
  const label = KIND_LABELS[kind];
  return (
    <svg className={`kind-icon kind-${kind}`} role="img" aria-label={label} viewBox="0 0 16 16" width="14" height="14">
      <title>{label}</title>
      {SHAPES[kind]}
    </svg>
  );
}
