// Read a whole queue for export: every item (with its place in the queue) and every feedback row
// written from the queue, a page of 1,000 at a time, through the typed client.
import type { WeftClient } from '@weft/client';
import type { AnnotationQueueItemSchema, FeedbackQueryReq } from '@weft/types';
import type { QueueFeedback } from './queue-results.ts';

const PAGE = 1000;

export async function readQueueItems(client: WeftClient, projectId: string, queueId: string): Promise<AnnotationQueueItemSchema[]> {
  const items: AnnotationQueueItemSchema[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const res = await client.POST('/annotation_queues/{queue_id}/items/query', {
      params: { path: { queue_id: queueId } },
      body: { project_id: projectId, include_position: true, limit: PAGE, offset },
    });
    items.push(...res.items);
    if (res.items.length < PAGE) return items;
  }
}

/** The feedback/query condition of rows written from `queueId`, optionally on some calls only. */
export function queueFeedbackQuery(queueId: string, callRefs?: readonly string[]): FeedbackQueryReq['query'] {
  const fromQueue = { $eq: [{ $getField: 'queue_id' }, { $literal: queueId }] };
  const expr: Record<string, unknown> = callRefs
    ? { $and: [fromQueue, { $in: [{ $getField: 'weave_ref' }, callRefs.map((ref) => ({ $literal: ref }))] }] }
    : fromQueue;
  // The spec types `$expr` as an open object (the language is described, not typed).
  return { $expr: expr } as FeedbackQueryReq['query'];
}

export async function readQueueFeedback(client: WeftClient, projectId: string, queueId: string): Promise<QueueFeedback[]> {
  const rows: QueueFeedback[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const res = await client.POST('/feedback/query', {
      body: {
        project_id: projectId,
        query: queueFeedbackQuery(queueId),
        sort_by: [
          { field: 'created_at', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        limit: PAGE,
        offset,
      },
    });
    // No `fields`: every field of each row is answered.
    rows.push(...(res.result as QueueFeedback[]));
    if (res.result.length < PAGE) return rows;
  }
}

/** Hand a file to the browser's download. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // After the click's task: the download has taken the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
