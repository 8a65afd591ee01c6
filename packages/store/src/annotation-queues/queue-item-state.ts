// An item's state and annotator: those of its latest progress record (Weave's items query), as
// correlated subqueries so a page reads only its own items' records.
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/index.ts';

type Eb = ExpressionBuilder<Database, 'annotation_queue_items'>;

function latest(eb: Eb, column: 'annotation_state' | 'annotator_id') {
  return eb
    .selectFrom('annotator_queue_items_progress as p')
    .select(`p.${column}`)
    .whereRef('p.project_id', '=', 'annotation_queue_items.project_id')
    .whereRef('p.queue_item_id', '=', 'annotation_queue_items.id')
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.annotator_id', 'asc')
    .limit(1);
}

export const latestState = (eb: Eb) => latest(eb, 'annotation_state');
export const latestAnnotator = (eb: Eb) => latest(eb, 'annotator_id');
