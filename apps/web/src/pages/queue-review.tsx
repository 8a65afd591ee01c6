// The annotator's workspace of one queue: item by item, the call and the queue's scorer fields.
// `?item=<id>` names the item shown (a reload or a shared link stays on it); without it the page
// resumes at the first item nobody finished and nobody else holds. The keyboard alone is enough
// (review-shortcuts.ts; `?` lists the keys).
import type { AnnotationQueueItemSchema } from '@weft/types';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { scorerOf } from '../annotation-fields.ts';
import type { AnnotationFormHandle } from '../components/annotation-form.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { ReviewItem } from '../components/review-item.tsx';
import { ReviewItemList, ReviewProgress } from '../components/review-progress.tsx';
import { ShortcutHelp } from '../components/shortcut-help.tsx';
import { doneCount, neighbour, nextOpenItem, resumeItem, takenBy } from '../review-queue.ts';
import { keyTargetOf, shortcutOf } from '../review-shortcuts.ts';
import { useApi, useReadOnly, useSignedInUser } from '../session.tsx';

/** Items listed beside the item (and browsed with j/k); the resume and "next" reads are their own. */
const LIST_MAX = 1000;
/** Open items read to choose the next one: enough to pass over the ones others hold. */
const PENDING_MAX = 500;
const ITEMS = '/annotation_queues/{queue_id}/items/query' as const;

export function QueueReviewPage() {
  const { entity, project, queueId } = useParams() as { entity: string; project: string; queueId: string };
  const projectId = `${entity}/${project}`;
  const [search] = useSearchParams();
  const itemId = search.get('item') ?? undefined;
  const navigate = useNavigate();
  const { $api } = useApi();
  const readOnly = useReadOnly(entity);
  // useReadOnly says "not read-only" until the key's scope is known: nothing is taken before that.
  const scopeKnown = $api.useQuery('get', '/server_info', {}, { staleTime: Infinity }).isSuccess;
  const form = useRef<AnnotationFormHandle>(null);
  const [help, setHelp] = useState(false);

  const queue = $api.useQuery('get', '/annotation_queues/{queue_id}', {
    params: { path: { queue_id: queueId }, query: { project_id: projectId } },
  });
  const refs = queue.data?.queue.scorer_refs ?? [];
  const specs = $api.useQuery('post', '/refs/read_batch', { body: { refs } }, { enabled: refs.length > 0 });
  const scorers = useMemo(() => refs.map((ref, i) => scorerOf(ref, specs.data?.vals[i])), [refs, specs.data]);
  // Who this key belongs to: an item in progress by them is theirs to resume, not someone else's.
  const me = useSignedInUser();

  const path = { params: { path: { queue_id: queueId } } };
  const list = $api.useQuery('post', ITEMS, { ...path, body: { project_id: projectId, include_position: true, limit: LIST_MAX } });
  const pending = $api.useQuery('post', ITEMS, {
    ...path,
    body: {
      project_id: projectId,
      include_position: true,
      filter: { annotation_states: ['unstarted', 'in_progress'] },
      limit: PENDING_MAX,
    },
  });
  const current = $api.useQuery(
    'post',
    ITEMS,
    { ...path, body: { project_id: projectId, filter: { id: itemId ?? '' } } },
    { enabled: itemId !== undefined },
  );
  const stats = $api.useQuery('post', '/annotation_queues/stats', { body: { project_id: projectId, queue_ids: [queueId] } });

  const items = list.data?.items ?? [];
  const resume = me === undefined ? undefined : resumeItem(pending.data?.items ?? [], me);
  useEffect(() => {
    if (itemId === undefined && resume) void navigate(`?item=${encodeURIComponent(resume.id)}`, { replace: true });
  }, [itemId, resume, navigate]);

  const item = current.data?.items[0];
  const position = (items.find((i) => i.id === itemId) ?? pending.data?.items.find((i) => i.id === itemId))?.position_in_queue;
  const total = stats.data?.stats[0]?.total_items ?? items.length;
  const done = stats.data?.stats[0]?.completed_items ?? doneCount(items);

  const go = (step: 1 | -1) => {
    const to = itemId === undefined ? undefined : neighbour(items, itemId, step);
    if (to) void navigate(`?item=${encodeURIComponent(to.id)}`);
  };
  const advance = async (finished: AnnotationQueueItemSchema, at: number | undefined) => {
    const fresh = await pending.refetch();
    const next = nextOpenItem(fresh.data?.items ?? [], me, at ?? 0, finished.id);
    await navigate(next ? `?item=${encodeURIComponent(next.id)}` : '?');
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const shortcut = shortcutOf(e, keyTargetOf(e.target instanceof Element ? e.target : null));
      if (!shortcut) return;
      if (help && shortcut.action !== 'help' && shortcut.action !== 'escape') return;
      switch (shortcut.action) {
        case 'help':
          setHelp(!help);
          break;
        case 'escape':
          if (!help) return;
          setHelp(false);
          form.current?.focus();
          break;
        case 'leave':
          (e.target as HTMLElement).blur();
          form.current?.focus();
          break;
        case 'next':
          go(1);
          break;
        case 'previous':
          go(-1);
          break;
        case 'submit':
          form.current?.submit();
          break;
        case 'skip':
          form.current?.skip();
          break;
        case 'clear':
          form.current?.clear();
          break;
        case 'digit':
          form.current?.pick(shortcut.key);
          break;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const loading = queue.isPending || (refs.length > 0 && specs.isPending);
  const failed = queue.error ?? specs.error ?? null;
  let body;
  if (failed) body = <ErrorView error={failed} />;
  else if (loading || me === undefined) body = <Loading what="the queue" />;
  else if (itemId === undefined) {
    if (pending.isPending) body = <Loading what="the items" />;
    else if (pending.error) body = <ErrorView error={pending.error} />;
    else if (!resume) {
      const held = pending.data.items.filter((i) => takenBy(i, me));
      body = (
        <p className="empty" role="note">
          {held.length === 0
            ? 'Every item of this queue is done.'
            : `Nothing left for you: the ${held.length === 1 ? 'one item' : `${held.length} items`} not done ${held.length === 1 ? 'is' : 'are'} in progress by someone else.`}
        </p>
      );
    }
  } else if (current.isPending) body = <Loading what="the item" />;
  else if (current.error) body = <ErrorView error={current.error} />;
  else if (!item)
    body = (
      <div role="alert" className="error">
        <strong>This item is not in the queue</strong>
        <p>
          It may have been removed. <Link to="?">Go to the next open item</Link>.
        </p>
      </div>
    );
  else
    body = (
      <ReviewItem
        key={item.id}
        item={item}
        position={position}
        total={total}
        scorers={scorers}
        me={me}
        entity={entity}
        project={project}
        readOnly={readOnly}
        // Taken only from a settled read of the item: a cached "unstarted" shown while it refetches may be old.
        mayClaim={scopeKnown && !readOnly && !current.isFetching}
        advance={advance}
        form={form}
      />
    );

  return (
    <section className="review">
      <p>
        <Link to={`/${entity}/${project}/queues/${queueId}`}>← {queue.data?.queue.name ?? 'The queue'}</Link>
        {' · '}
        <button type="button" className="link" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          Keyboard shortcuts (?)
        </button>
      </p>
      <header className="review-head">
        <h1>Review: {queue.data?.queue.name ?? '…'}</h1>
        <ReviewProgress done={done} total={total} />
      </header>
      <div className="review-layout">
        {list.error ? (
          <ErrorView error={list.error} />
        ) : (
          <ReviewItemList items={items} currentId={itemId} me={me} truncated={items.length >= LIST_MAX} />
        )}
        <div className="review-main">{body}</div>
      </div>
      {help && (
        <ShortcutHelp
          onClose={() => {
            setHelp(false);
            form.current?.focus();
          }}
        />
      )}
    </section>
  );
}
