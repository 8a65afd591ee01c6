// How far the queue is (done = completed or skipped by someone, as annotation_queues/stats counts)
// and a compact list of its items to jump to: place, op, state and who holds or finished it.
import type { AnnotationQueueItemSchema } from '@weft/types';
import { Link } from 'react-router';
import { opLabel } from '../call-facts.ts';

const STATE_LABEL: Record<AnnotationQueueItemSchema['annotation_state'], string> = {
  unstarted: 'to do',
  in_progress: 'in progress',
  completed: 'done',
  skipped: 'skipped',
};

export function ReviewProgress({ done, total }: { done: number; total: number }) {
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div className="review-progress">
      <span role="status">
        {done} of {total} done
      </span>
      <div className="progress-track" aria-hidden="true">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

interface ListProps {
  items: AnnotationQueueItemSchema[];
  currentId: string | undefined;
  me: string | undefined;
  /** The list holds only the first `items.length` of more. */
  truncated: boolean;
}

export function ReviewItemList({ items, currentId, me, truncated }: ListProps) {
  return (
    <nav className="review-items" aria-label="Items of the queue">
      <ol>
        {items.map((item) => {
          const who = item.annotator_user_id || '';
          return (
            <li key={item.id} className={`state-${item.annotation_state}`}>
              <Link
                to={`?item=${encodeURIComponent(item.id)}`}
                aria-current={item.id === currentId ? 'true' : undefined}
                aria-label={`Item ${item.position_in_queue ?? '?'}: ${opLabel({ op_name: item.call_op_name })}, ${STATE_LABEL[item.annotation_state]}${who ? ` by ${who}` : ''}`}
              >
                <span className="num">{item.position_in_queue}</span>
                <span className="item-op">{opLabel({ op_name: item.call_op_name })}</span>
                <span className={`item-state item-${item.annotation_state}`}>{STATE_LABEL[item.annotation_state]}</span>
                <span className="muted item-who">{who === '' ? '' : who === me ? 'you' : who}</span>
              </Link>
            </li>
          );
        })}
      </ol>
      {truncated && <p className="muted">Only the first {items.length} items are listed.</p>}
    </nav>
  );
}
