// A queue's scores at a glance, from /feedback/stats over the queue's life (its creation to now):
// per scorer, the mean, lowest and highest of a number scale, the share of yes of a yes/no field,
// or how many labels were given. The scorer's kind comes from its AnnotationSpec's field_schema.
import type { AnnotationQueueSchema, FeedbackMetricSpec } from '@weft/types';
import { useApi } from '../session.tsx';
import { scorerNameOf } from '../queue-results.ts';

type ValueType = NonNullable<FeedbackMetricSpec['value_type']>;

function valueTypeOf(spec: unknown): ValueType {
  const schema = (spec as { field_schema?: { type?: unknown; enum?: unknown } } | null)?.field_schema ?? {};
  if (schema.type === 'number' || schema.type === 'integer') return 'numeric';
  if (schema.type === 'boolean') return 'boolean';
  return 'categorical';
}

export function QueueScoreSummary({ queue }: { queue: AnnotationQueueSchema }) {
  const { $api } = useApi();
  const specs = $api.useQuery('post', '/refs/read_batch', { body: { refs: queue.scorer_refs } }, { enabled: queue.scorer_refs.length > 0 });
  if (!specs.data) return null;
  return (
    <dl className="facts" aria-label="Score summary">
      {queue.scorer_refs.map((ref, i) => (
        <ScorerStat key={ref} queue={queue} name={scorerNameOf(ref)} valueType={valueTypeOf(specs.data.vals[i])} />
      ))}
    </dl>
  );
}

function ScorerStat({ queue, name, valueType }: { queue: AnnotationQueueSchema; name: string; valueType: ValueType }) {
  const { $api } = useApi();
  const stats = $api.useQuery('post', '/feedback/stats', {
    body: {
      project_id: queue.project_id,
      start: queue.created_at,
      feedback_type: `wandb.annotation.${name}`,
      metrics: [{ json_path: 'value', value_type: valueType, aggregations: aggregationsOf(valueType) }],
    },
  });
  const window = stats.data?.window_stats?.value ?? {};
  const n = (key: string) => (typeof window[key] === 'number' ? window[key] : undefined);
  const count = n('count') ?? 0;
  let text = '…';
  if (stats.error) text = 'could not be read';
  else if (stats.data) {
    if (count === 0) text = 'no score yet';
    else if (valueType === 'numeric') text = `mean ${n('avg')!.toFixed(2)}, lowest ${n('min')}, highest ${n('max')} (${count} scores)`;
    else if (valueType === 'boolean') text = `${Math.round((n('avg') ?? 0) * 100)}% yes (${count} answers)`;
    else text = `${count} labels given`;
  }
  return (
    <>
      <dt>{name}</dt>
      <dd data-summary={name}>{text}</dd>
    </>
  );
}

function aggregationsOf(valueType: ValueType): FeedbackMetricSpec['aggregations'] {
  if (valueType === 'numeric') return ['avg', 'min', 'max', 'count'];
  if (valueType === 'boolean') return ['avg', 'count'];
  return ['count'];
}
