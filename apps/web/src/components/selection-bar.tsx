// What the traces list does with its selection: a count, "select all matching the filter" once a
// whole page is picked, Add to queue (add-to-queue.tsx), Add to dataset (add-to-dataset.tsx) and
// Judge (judge-calls.tsx).
import { useState } from 'react';
import { AddToDataset } from './add-to-dataset.tsx';
import { AddToQueue, type CallSelection } from './add-to-queue.tsx';
import { JudgeCalls } from './judge-calls.tsx';

interface Props {
  projectId: string;
  /** Ids picked one by one (or a page at a time). */
  picked: ReadonlySet<string>;
  /** Every call matching the filter is selected, not only the picked ones. */
  allMatching: boolean;
  /** How many calls match the filter (undefined while counting). */
  total: number | undefined;
  pageFullyPicked: boolean;
  onAllMatching: () => void;
  onClear: () => void;
  matchingIds: () => Promise<string[]>;
}

export function SelectionBar({ projectId, picked, allMatching, total, pageFullyPicked, onAllMatching, onClear, matchingIds }: Props) {
  const [adding, setAdding] = useState<'queue' | 'dataset' | 'judge'>();
  if (picked.size === 0 && !allMatching) return null;
  const count = allMatching ? (total ?? 0) : picked.size;
  const selection: CallSelection = allMatching ? { count, ids: matchingIds } : { count, ids: () => Promise.resolve([...picked]) };
  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      <span role="status">
        {allMatching ? `All ${count.toLocaleString()} traces matching the filter are selected.` : `${count.toLocaleString()} selected.`}
      </span>
      {!allMatching && pageFullyPicked && total !== undefined && total > picked.size && (
        <button type="button" className="link" onClick={onAllMatching}>
          Select all {total.toLocaleString()} matching the filter
        </button>
      )}
      <button type="button" aria-expanded={adding === 'queue'} onClick={() => setAdding('queue')}>
        Add to queue…
      </button>
      <button type="button" aria-expanded={adding === 'dataset'} onClick={() => setAdding('dataset')}>
        Add to dataset…
      </button>
      <button type="button" aria-expanded={adding === 'judge'} onClick={() => setAdding('judge')}>
        Judge…
      </button>
      <button
        type="button"
        className="link"
        onClick={() => {
          setAdding(undefined);
          onClear();
        }}
      >
        Clear selection
      </button>
      {adding === 'queue' && <AddToQueue projectId={projectId} selection={selection} onClose={() => setAdding(undefined)} />}
      {adding === 'judge' && <JudgeCalls projectId={projectId} selection={selection} onClose={() => setAdding(undefined)} />}
      {adding === 'dataset' && <AddToDataset projectId={projectId} selection={selection} onClose={() => setAdding(undefined)} />}
    </div>
  );
}
