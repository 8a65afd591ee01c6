// A step's trajectories as the run page lists them (step-trajectories.tsx): in the order they
// were logged or by reward, a page at a time, each summed up in one line while collapsed.
import type { TrajectoryRecord } from '@weft/types';
import { messagesOf, type ChatMessage } from './components/chat-view.tsx';

export const ORDERS = { logged: 'As logged', 'reward-desc': 'Reward, highest first', 'reward-asc': 'Reward, lowest first' } as const;
export type TrajectoryOrder = keyof typeof ORDERS;

export const isOrder = (v: string | null): v is TrajectoryOrder => v !== null && v in ORDERS;

export const rewardOf = (t: TrajectoryRecord): number | null =>
  typeof t.trajectory.reward === 'number' && Number.isFinite(t.trajectory.reward) ? t.trajectory.reward : null;

/** A copy in `order`; ties (and trajectories without a reward, last either way) keep the logged order. */
export function sortTrajectories(list: readonly TrajectoryRecord[], order: TrajectoryOrder): TrajectoryRecord[] {
  if (order === 'logged') return [...list];
  const sign = order === 'reward-desc' ? -1 : 1;
  return [...list].sort((a, b) => {
    const [ra, rb] = [rewardOf(a), rewardOf(b)];
    if (ra === null || rb === null) return (ra === null ? 1 : 0) - (rb === null ? 1 : 0);
    return sign * (ra - rb);
  });
}

/** Page `page` (0-based, held within the pages there are) of `size` items, and how many pages. */
export function pageOf<T>(list: readonly T[], page: number, size: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(list.length / size));
  const at = Math.min(Math.max(0, Math.floor(page) || 0), pages - 1);
  return { items: list.slice(at * size, (at + 1) * size), page: at, pages };
}

/** The conversation: ART stores messages and choices (a choice's message is what the model said). */
export function trajectoryMessages(t: TrajectoryRecord): ChatMessage[] | undefined {
  return messagesOf((t.trajectory.messages_and_choices ?? []).map((m) => (m as { message?: unknown }).message ?? m));
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** One line for a collapsed trajectory: the model's last words (or the last message), shortened. */
export function summaryOf(t: TrajectoryRecord, max = 120): string {
  const messages = trajectoryMessages(t) ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'assistant') ?? messages.at(-1);
  if (!last) return 'No messages';
  const text =
    typeof last.content === 'string' && last.content.trim() !== ''
      ? last.content
      : JSON.stringify(last.content ?? (last as { tool_calls?: unknown }).tool_calls ?? null);
  return `${messages.length} message${messages.length === 1 ? '' : 's'} · ${last.role}: ${oneLine(text, max)}`;
}
