import { describe, expect, it } from 'vitest';
import { checkpointColumns } from './checkpoint-columns.ts';

describe('checkpointColumns', () => {
  it('puts reward first, then exception rate, then the rest by name, splits side by side', () => {
    const cols = checkpointColumns([
      { metrics: { 'val/turns': 2, 'train/turns': 3, 'train/exception_rate': 0, 'val/reward': 0.4, loss: 0.1 } },
      { metrics: { 'train/reward': 0.5, 'train/reward_std_dev': 0.1 } },
      { metrics: {} },
    ]);
    expect(cols).toEqual([
      'train/reward',
      'val/reward',
      'train/reward_std_dev',
      'train/exception_rate',
      'loss',
      'train/turns',
      'val/turns',
    ]);
  });

  it('has no columns for checkpoints without metrics', () => {
    expect(checkpointColumns([{ metrics: {} }])).toEqual([]);
  });
});
