// The metric columns of a run's checkpoint table (checkpoint-table.tsx). A checkpoint's metrics
// are named `<split>/<metric>` (the aggregates of the logs at its step) or as the trainer
// registered them; reward comes first, then exception rate, then the rest by name, each metric's
// splits side by side.

const RANK: Record<string, number> = { reward: 0, reward_std_dev: 1, exception_rate: 2 };

function parts(key: string): { metric: string; split: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { metric: key, split: '' } : { split: key.slice(0, slash), metric: key.slice(slash + 1) };
}

/** Every metric any of the checkpoints holds, in column order. */
export function checkpointColumns(checkpoints: ReadonlyArray<{ metrics: Record<string, number> }>): string[] {
  const keys = [...new Set(checkpoints.flatMap((c) => Object.keys(c.metrics)))];
  return keys.sort((a, b) => {
    const [pa, pb] = [parts(a), parts(b)];
    const rank = (RANK[pa.metric] ?? 9) - (RANK[pb.metric] ?? 9);
    if (rank !== 0) return rank;
    return pa.metric === pb.metric ? pa.split.localeCompare(pb.split) : pa.metric.localeCompare(pb.metric);
  });
}
