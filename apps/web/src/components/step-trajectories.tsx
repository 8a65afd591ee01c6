// The trajectories of one step and split, a page at a time, in the order they were logged or by
// reward. The API lists them in logged order only (a trajectory's reward is inside its stored
// row, not a column it can sort on), so the step is read whole, in the API's largest pages up to
// a bound, and sorted and paged here; a step holds what one training step logged.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TrajectoryRecord } from '@weft/types';
import { useMemo } from 'react';
import { useApi } from '../session.tsx';
import { Pager } from './pager.tsx';
import { ErrorView, Loading } from './query-state.tsx';
import { TrajectoryItem } from './trajectory-item.tsx';
import { ORDERS, pageOf, sortTrajectories, type TrajectoryOrder } from '../trajectory-order.ts';

const PAGE = 20;
const CHUNK = 100;
/** At most this many of a step's trajectories are read (and sorted). */
export const STEP_CAP = 500;

export function StepTrajectories({
  modelId,
  step,
  split,
  order,
  page,
  onOrder,
  onPage,
}: {
  modelId: string;
  step: number;
  split: string;
  order: TrajectoryOrder;
  page: number;
  onOrder: (order: TrajectoryOrder) => void;
  onPage: (page: number) => void;
}) {
  const { client } = useApi();
  const query = useQuery({
    queryKey: ['step-trajectories', modelId, step, split],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const list: TrajectoryRecord[] = [];
      let after: string | undefined;
      let more = true;
      while (more && list.length < STEP_CAP) {
        const res = await client.GET('/v1/preview/models/{model_id}/trajectories', {
          params: { path: { model_id: modelId }, query: { step, split, limit: CHUNK, ...(after ? { after } : {}) } },
          signal,
        });
        list.push(...res.data);
        more = res.has_more && res.last_id !== null;
        after = res.last_id ?? undefined;
      }
      return { list, capped: more };
    },
  });
  const sorted = useMemo(() => sortTrajectories(query.data?.list ?? [], order), [query.data, order]);
  const shown = pageOf(sorted, page, PAGE);
  const pager = (where: string) => (
    <Pager label={`Trajectory pages (${where})`} page={shown.page} hasNext={shown.page < shown.pages - 1} onPage={onPage}>
      Page {shown.page + 1} of {shown.pages}
    </Pager>
  );
  return (
    <section aria-label="Trajectories of the step" className="step-trajectories">
      <h2>
        Step {step}, {split}
      </h2>
      {query.isPending ? (
        <Loading what="trajectories" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : (
        <>
          <div className="list-toolbar">
            <label>
              Order{' '}
              <select value={order} onChange={(e) => onOrder(e.target.value as TrajectoryOrder)}>
                {Object.entries(ORDERS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted">
              {sorted.length.toLocaleString()} trajectories
              {query.data.capped && ` (the first ${STEP_CAP.toLocaleString()} logged; the rest are not read)`}
            </span>
            {shown.pages > 1 && pager('top')}
          </div>
          <ol className="trajectories" start={shown.page * PAGE + 1}>
            {shown.items.map((t) => (
              <TrajectoryItem key={t.id} record={t} />
            ))}
          </ol>
          {shown.pages > 1 && pager('bottom')}
        </>
      )}
    </section>
  );
}
