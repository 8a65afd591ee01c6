// One queue item under review: the call, and the form of the queue's scorers. Opening an unstarted
// item marks it in progress for this reviewer (so a second reviewer sees it taken); Submit writes
// one annotation feedback per filled field (carrying the queue and the scorer's ref), then marks
// the item completed, then moves on; Skip marks it skipped and moves on. What the server refuses
// is shown with its reason, and the form keeps its values.
import type { AnnotationQueueItemSchema, CallsQuery, FeedbackCreateBatchItem, FeedbackRow } from '@weft/types';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Ref } from 'react';
import type { ApiErrorBody } from '../api.ts';
import { rawOf, type Scorer } from '../annotation-fields.ts';
import { takenBy } from '../review-queue.ts';
import { useApi } from '../session.tsx';
import { AnnotationForm, type AnnotationFormHandle, type FilledField } from './annotation-form.tsx';
import type { Submitted } from './annotation-field.tsx';
import { ErrorView, Loading } from './query-state.tsx';
import { RefusalView } from './refusal-view.tsx';
import { ReviewCall } from './review-call.tsx';

interface Props {
  item: AnnotationQueueItemSchema;
  position: number | undefined;
  total: number;
  scorers: Scorer[];
  me: string;
  entity: string;
  project: string;
  readOnly: boolean;
  /** Whether opening the item may take it now (the key may write, and the item's state is fresh). */
  mayClaim: boolean;
  /** Go on to the next item once this one is finished. */
  advance: (item: AnnotationQueueItemSchema, position: number | undefined) => Promise<void>;
  form: Ref<AnnotationFormHandle>;
}

type Expr = Record<string, unknown>;
const eq = (field: string, value: string): Expr => ({ $eq: [{ $getField: field }, { $literal: value }] });
const all = (...parts: Expr[]): Expr => ({ $and: parts });

export function ReviewItem({ item, position, total, scorers, me, entity, project, readOnly, mayClaim, advance, form }: Props) {
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const queryClient = useQueryClient();
  const weaveRef = `weave:///${projectId}/call/${item.call_id}`;
  const call = $api.useQuery('post', '/call/read', { body: { project_id: projectId, id: item.call_id } });
  // This reviewer's earlier values for the item, newest first.
  const mine = $api.useQuery('post', '/feedback/query', {
    body: {
      project_id: projectId,
      query: { $expr: all(eq('weave_ref', weaveRef), eq('queue_id', item.queue_id), eq('wb_user_id', me)) } as CallsQuery,
      sort_by: [{ field: 'created_at', direction: 'desc' }],
    },
  });
  const progress = $api.useMutation('post', '/annotation_queues/{queue_id}/items/{item_id}/progress');
  const create = $api.useMutation('post', '/feedback/batch/create');
  const replace = $api.useMutation('post', '/feedback/replace');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<unknown>();
  const [claimRefusal, setClaimRefusal] = useState<unknown>();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const setState = (annotation_state: 'in_progress' | 'completed' | 'skipped') =>
    progress.mutateAsync({
      params: { path: { queue_id: item.queue_id, item_id: item.id } },
      body: { project_id: projectId, annotation_state },
    });

  // Opening an unstarted item takes it, once per item (StrictMode runs effects twice in development);
  // its state as read when it opened decides, not later reads.
  const claimed = useRef<string>(undefined);
  useEffect(() => {
    if (!mayClaim || item.annotation_state !== 'unstarted' || claimed.current === item.id) return;
    claimed.current = item.id;
    setState('in_progress')
      .catch((e: unknown) => setClaimRefusal(e))
      .finally(() => void queryClient.invalidateQueries());
  }, [item.id, item.annotation_state, mayClaim]);

  const latest = new Map<string, FeedbackRow>();
  for (const row of mine.data?.result ?? []) if (row.feedback_type && !latest.has(row.feedback_type)) latest.set(row.feedback_type, row);
  const typeOf = (s: Scorer) => `wandb.annotation.${s.name}`;
  const submitted: Record<string, Submitted> = {};
  const initial: Record<string, string> = {};
  for (const s of scorers) {
    const row = latest.get(typeOf(s));
    if (!row) continue;
    const value = (row.payload as { value?: unknown } | undefined)?.value;
    submitted[s.ref] = { value, created_at: row.created_at ?? '' };
    initial[s.ref] = rawOf(value);
  }

  const finish = async (write: () => Promise<void>) => {
    setBusy(true);
    setRefusal(undefined);
    setServerErrors({});
    try {
      await write();
      await queryClient.invalidateQueries();
      await advance(item, position);
    } catch (e) {
      setRefusal(e);
      await queryClient.invalidateQueries();
    } finally {
      setBusy(false);
    }
  };

  const submit = (filled: FilledField[]) =>
    finish(async () => {
      const batch: Array<{ scorer: Scorer; body: FeedbackCreateBatchItem }> = [];
      const replaced: Array<{ scorer: Scorer; id: string; body: FeedbackCreateBatchItem }> = [];
      for (const { scorer, value } of filled) {
        const body = {
          id: crypto.randomUUID(),
          project_id: projectId,
          weave_ref: weaveRef,
          feedback_type: typeOf(scorer),
          annotation_ref: scorer.ref,
          payload: { value },
          queue_id: item.queue_id,
        };
        const before = latest.get(typeOf(scorer));
        if (!before) batch.push({ scorer, body });
        else if (JSON.stringify((before.payload as { value?: unknown }).value) !== JSON.stringify(value) && before.id)
          replaced.push({ scorer, id: before.id, body });
      }
      try {
        if (batch.length > 0) await create.mutateAsync({ body: { batch: batch.map((b) => b.body) } });
      } catch (e) {
        setServerErrors(fieldErrorsOf(e, (i) => batch[i]?.scorer.ref));
        throw e;
      }
      for (const r of replaced) {
        const { id: _, ...fields } = r.body;
        try {
          await replace.mutateAsync({ body: { ...fields, feedback_id: r.id } });
        } catch (e) {
          setServerErrors(fieldErrorsOf(e, () => r.scorer.ref));
          throw e;
        }
      }
      // Completing an item this reviewer completed already is refused by the server (Weave's rule): an
      // edit of earlier values writes the feedback only.
      if (!(item.annotation_state === 'completed' && item.annotator_user_id === me)) await setState('completed');
    });

  const skip = () => finish(async () => void (await setState('skipped')));

  const holder = takenBy(item, me);
  return (
    <div className="review-item">
      <div className="review-item-head">
        <h2>
          Item {position ?? '?'} of {total}
        </h2>
        <span className={`item-state item-${item.annotation_state}`}>
          {holder
            ? `In progress by ${holder}`
            : item.annotation_state === 'unstarted'
              ? 'Not started'
              : `${item.annotation_state === 'in_progress' ? 'In progress' : item.annotation_state === 'completed' ? 'Completed' : 'Skipped'}${
                  item.annotator_user_id ? ` by ${item.annotator_user_id === me ? 'you' : item.annotator_user_id}` : ''
                }`}
        </span>
      </div>
      {holder && (
        <p className="notice">
          {holder} is working on this item. Your values would be recorded beside theirs; the next open item is usually a better use of your
          time (j).
        </p>
      )}
      {claimRefusal !== undefined && <RefusalView error={claimRefusal} what="Could not mark this item as in progress" />}
      <div className="review-body">
        {call.isPending ? (
          <Loading what="the call" />
        ) : call.error ? (
          <ErrorView error={call.error} />
        ) : (
          <ReviewCall call={call.data.call} item={item} entity={entity} project={project} />
        )}
        <div className="review-form">
          {mine.isPending ? (
            <Loading what="your earlier values" />
          ) : (
            <>
              {mine.error && <ErrorView error={mine.error} />}
              <AnnotationForm
                key={item.id}
                scorers={scorers}
                initial={initial}
                submitted={submitted}
                readOnly={readOnly}
                busy={busy}
                refusal={refusal}
                serverErrors={serverErrors}
                onSubmit={(filled) => void submit(filled)}
                onSkip={() => void skip()}
                handle={form}
              />
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** A 422's detail by field: `body.batch.<i>.payload.value…` names the i-th item written. */
function fieldErrorsOf(error: unknown, refOfItem: (i: number) => string | undefined): Record<string, string> {
  const detail = (typeof error === 'object' && error !== null ? (error as ApiErrorBody).detail : undefined) ?? [];
  const out: Record<string, string> = {};
  for (const d of detail) {
    const at = d.loc.indexOf('batch');
    const ref = refOfItem(at === -1 ? 0 : Number(d.loc[at + 1]));
    if (ref && out[ref] === undefined) out[ref] = d.msg;
  }
  return out;
}
