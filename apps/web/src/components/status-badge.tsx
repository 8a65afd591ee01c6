import type { CallStatus } from '../call-facts.ts';

const LABELS: Record<CallStatus, string> = { success: 'Success', error: 'Error', running: 'Running', descendant_error: 'Child error' };

export function StatusBadge({ status }: { status: CallStatus }) {
  return <span className={`badge badge-${status}`}>{LABELS[status]}</span>;
}
