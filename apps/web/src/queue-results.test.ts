import type { AnnotationQueueItemSchema } from '@weft/types';
import { describe, expect, it } from 'vitest';
import { resultRows, scorerNameOf, toCsv, toJsonLines, type QueueFeedback } from './queue-results.ts';

const P = 'acme/bot';
const item = (n: number, over: Partial<AnnotationQueueItemSchema> = {}): AnnotationQueueItemSchema => ({
  id: `item-${n}`,
  project_id: P,
  queue_id: 'q',
  call_id: `call-${n}`,
  call_started_at: '2026-11-25T08:00:00.000Z',
  call_op_name: 'weave:///acme/bot/op/answer:abc',
  call_trace_id: `trace-${n}`,
  display_fields: [],
  annotation_state: 'unstarted',
  annotator_user_id: '',
  created_at: '2026-11-25T09:00:00.000Z',
  created_by: 'alice',
  updated_at: '2026-11-25T09:00:00.000Z',
  position_in_queue: n,
  ...over,
});
const score = (n: number, name: string, value: unknown, user: string, at: string): QueueFeedback => ({
  id: `${n}-${name}-${user}-${at}`,
  weave_ref: `weave:///${P}/call/call-${n}`,
  feedback_type: `wandb.annotation.${name}`,
  payload: { value },
  creator: null,
  wb_user_id: user,
  created_at: at,
});

describe('queue results', () => {
  it('names a scorer by its object ref', () => {
    expect(scorerNameOf('weave:///acme/bot/object/quality:abc123')).toBe('quality');
    expect(scorerNameOf('weave:///acme/bot/object/v1.label:*')).toBe('v1.label');
  });

  it('gives one row per item and reviewer, a reviewer’s newest score of each field, and unscored items once', () => {
    const items = [
      item(1, { annotation_state: 'completed', annotator_user_id: 'bob' }),
      item(2, { annotation_state: 'skipped', annotator_user_id: 'alice' }),
    ];
    const feedback = [
      score(1, 'quality', 2, 'alice', '2026-11-25T10:00:02.000Z'),
      score(1, 'quality', 4, 'alice', '2026-11-25T10:00:01.000Z'),
      score(1, 'label', 'good', 'alice', '2026-11-25T10:00:01.000Z'),
      score(1, 'quality', 5, 'bob', '2026-11-25T10:00:03.000Z'),
      { ...score(1, 'x', 1, 'alice', '2026-11-25T10:00:04.000Z'), feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } },
    ];
    const rows = resultRows(P, items, feedback);
    expect(rows.map((r) => [r.item_id, r.annotator, r.scores, r.annotated_at])).toEqual([
      ['item-1', 'alice', { quality: 2, label: 'good' }, '2026-11-25T10:00:02.000Z'],
      ['item-1', 'bob', { quality: 5 }, '2026-11-25T10:00:03.000Z'],
      ['item-2', 'alice', {}, ''],
    ]);
  });

  it('writes CSV with quoting where a cell needs it, and JSON Lines of the same rows', () => {
    const rows = resultRows(
      P,
      [item(1, { call_op_name: 'a "quoted", op' })],
      [
        score(1, 'note', 'line one\nline two', 'alice', '2026-11-25T10:00:00.000Z'),
        score(1, 'quality', 4, 'alice', '2026-11-25T10:00:00.000Z'),
      ],
    );
    const csv = toCsv(rows, ['quality', 'note', 'missing']);
    expect(csv.split('\r\n')[0]).toBe(
      'item_id,position,call_id,call_trace_id,call_op_name,annotation_state,annotator,annotated_at,quality,note,missing',
    );
    expect(csv).toBe(
      'item_id,position,call_id,call_trace_id,call_op_name,annotation_state,annotator,annotated_at,quality,note,missing\r\n' +
        'item-1,1,call-1,trace-1,"a ""quoted"", op",unstarted,alice,2026-11-25T10:00:00.000Z,4,"line one\nline two",\r\n',
    );
    const lines = toJsonLines(rows).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      item_id: 'item-1',
      position: 1,
      annotator: 'alice',
      scores: { note: 'line one\nline two', quality: 4 },
    });
  });
});
