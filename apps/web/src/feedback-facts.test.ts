import { describe, expect, it } from 'vitest';
import { authorOf, feedbackOf, latestAnnotations, reactionsOf, viewOf, type Feedback } from './feedback-facts.ts';

const row = (over: Partial<Feedback> & Pick<Feedback, 'feedback_type' | 'payload'>): Feedback => ({
  id: Math.random().toString(36).slice(2),
  creator: null,
  created_at: '2026-11-25T08:00:00.000Z',
  wb_user_id: 'alice',
  ...over,
});

describe('feedback facts', () => {
  it('reads Weave’s reaction, note, annotation and scorer payloads', () => {
    expect(viewOf(row({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } }))).toEqual({
      kind: 'reaction',
      label: 'Reaction',
      value: '👍',
    });
    expect(viewOf(row({ feedback_type: 'wandb.note.1', payload: { note: 'off topic' } }))).toMatchObject({
      kind: 'note',
      value: 'off topic',
    });
    expect(viewOf(row({ feedback_type: 'wandb.annotation.quality', payload: { value: 4 } }))).toEqual({
      kind: 'annotation',
      label: 'quality',
      value: '4',
    });
    expect(viewOf(row({ feedback_type: 'wandb.runnable.judge', payload: { output: { score: 1 } } }))).toEqual({
      kind: 'scorer',
      label: 'judge',
      value: '{"score":1}',
    });
    expect(viewOf(row({ feedback_type: 'custom', payload: { a: 1 } }))).toEqual({ kind: 'other', label: 'custom', value: '{"a":1}' });
  });

  it('names the author the client gave, else the user', () => {
    expect(authorOf(row({ feedback_type: 'x', payload: {}, creator: 'Jane' }))).toBe('Jane');
    expect(authorOf(row({ feedback_type: 'x', payload: {} }))).toBe('alice');
  });

  it('counts reactions per emoji and finds the signed-in user’s own', () => {
    const rows = [
      row({ id: 'a', feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' }, wb_user_id: 'bob' }),
      row({ id: 'b', feedback_type: 'wandb.reaction.1', payload: { emoji: '👎' } }),
      row({ id: 'c', feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } }),
      row({ id: 'd', feedback_type: 'wandb.note.1', payload: { note: 'n' } }),
    ];
    expect(reactionsOf(rows, 'alice')).toEqual([
      { emoji: '👍', count: 2, mineId: 'c' },
      { emoji: '👎', count: 1, mineId: 'b' },
    ]);
    expect(reactionsOf(rows, undefined).every((r) => r.mineId === undefined)).toBe(true);
  });

  it('keeps the newest value of each annotation field', () => {
    const rows = [
      row({ feedback_type: 'wandb.annotation.quality', payload: { value: 2 }, created_at: '2026-11-25T08:00:02.000Z' }),
      row({ feedback_type: 'wandb.annotation.quality', payload: { value: 5 }, created_at: '2026-11-25T08:00:01.000Z' }),
      row({ feedback_type: 'wandb.annotation.label', payload: { value: 'ok' } }),
    ];
    expect([...latestAnnotations(rows)]).toEqual([
      ['quality', 2],
      ['label', 'ok'],
    ]);
  });

  it('reads no rows from a call read without include_feedback', () => {
    expect(feedbackOf({ summary: {} })).toEqual([]);
    expect(feedbackOf({ summary: { weave: { feedback: [row({ feedback_type: 'x', payload: {} })] } } })).toHaveLength(1);
  });
});
