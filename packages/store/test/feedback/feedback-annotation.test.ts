// Annotation feedback as Weave's annotators write it: the value checked against the annotation
// spec's field_schema (422 naming payload.value), the queue it came from kept and queried, on
// both databases.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { catalogue, ctx } from '../calls/call-fixtures.ts';
import { describeEachDialect } from '../dialects.ts';

const lossless = { ...ctx, source: undefined };

describeEachDialect('annotation feedback', (getDb) => {
  async function setup(p: string) {
    const store = createStore({ db: getDb(), catalogue });
    const spec = async (name: string, field_schema: object) => {
      const val = {
        _type: 'AnnotationSpec',
        name,
        field_schema,
        unique_among_creators: false,
        _class_name: 'AnnotationSpec',
        _bases: ['Object', 'BaseModel'],
      };
      const { digest } = await store.objCreate({ obj: { project_id: p, object_id: name, val } }, lossless);
      return `weave:///${p}/object/${name}:${digest}`;
    };
    const refs = {
      score: await spec('score', { type: 'integer', minimum: 1, maximum: 5 }),
      verdict: await spec('verdict', { type: 'string', enum: ['good', 'bad'] }),
      ok: await spec('ok', { type: 'boolean' }),
      note: await spec('note', { type: 'string', maxLength: 10 }),
    };
    const { id: queue_id } = await store.annotationQueueCreate({ project_id: p, name: 'q', scorer_refs: Object.values(refs) }, ctx);
    const annotate = (name: keyof typeof refs, value: unknown, extra: object = {}) =>
      store.feedbackCreate(
        {
          project_id: p,
          weave_ref: `weave:///${p}/call/c1`,
          feedback_type: `wandb.annotation.${name}`,
          annotation_ref: refs[name],
          payload: { value },
          queue_id,
          ...extra,
        },
        ctx,
      );
    return { store, refs, queue_id, annotate };
  }

  it('takes values that match the spec and refuses the others with 422 naming payload.value', async () => {
    const { annotate } = await setup('fa/schema');
    for (const [name, value] of [
      ['score', 4],
      ['verdict', 'good'],
      ['ok', false],
      ['note', 'short'],
    ] as const)
      await expect(annotate(name, value), name).resolves.toMatchObject({ payload: { value } });
    for (const [name, value] of [
      ['score', 6],
      ['score', 2.5],
      ['score', '3'],
      ['verdict', 'meh'],
      ['ok', 'yes'],
      ['note', 'much too long'],
    ] as const)
      await expect(annotate(name, value), `${name} ${JSON.stringify(value)}`).rejects.toMatchObject({
        status: 422,
        detail: [{ loc: ['body', 'payload', 'value'], msg: expect.stringMatching(/annotation spec/) as string, type: 'value_error' }],
      });
  });

  it('refuses a missing spec and a deleted or foreign queue with 400', async () => {
    const { store, annotate, queue_id } = await setup('fa/refs');
    await expect(annotate('score', 3, { annotation_ref: 'weave:///fa/refs/object/score:nope' })).rejects.toMatchObject({ status: 400 });
    await expect(annotate('score', 3, { queue_id: 'nope' })).rejects.toMatchObject({
      status: 400,
      message: 'Queue nope not found or has been deleted',
    });
    await store.annotationQueueDelete({ project_id: 'fa/refs', queue_id }, ctx);
    await expect(annotate('score', 3)).rejects.toMatchObject({ status: 400 });
    // Outside queues: '' is Weave's "no queue".
    await expect(annotate('score', 3, { queue_id: '' })).resolves.toMatchObject({ payload: { value: 3 } });
  });

  it('keeps the queue id, answers it in feedback/query and filters on it', async () => {
    const { store, annotate, queue_id, refs } = await setup('fa/query');
    const { id } = await annotate('score', 5);
    await annotate('score', 2, { queue_id: null });
    const { result } = await store.feedbackQuery(
      { project_id: 'fa/query', query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: queue_id }] } } as never },
      ctx,
    );
    expect(result).toEqual([
      expect.objectContaining({ id, queue_id, annotation_ref: refs.score, feedback_type: 'wandb.annotation.score', payload: { value: 5 } }),
    ]);
    const all = await store.feedbackQuery({ project_id: 'fa/query' }, ctx);
    expect(all.result.filter((r) => !('queue_id' in r))).toHaveLength(1);
  });

  it('checks each batch item against its spec, naming its place', async () => {
    const { store, refs, queue_id } = await setup('fa/batch');
    const item = (id: string, value: unknown) => ({
      id,
      project_id: 'fa/batch',
      weave_ref: 'weave:///fa/batch/call/c1',
      feedback_type: 'wandb.annotation.score',
      annotation_ref: refs.score,
      payload: { value },
      queue_id,
    });
    await expect(store.feedbackBatchCreate({ batch: [item('a', 1), item('b', 9)] }, ctx)).rejects.toMatchObject({
      status: 422,
      detail: [{ loc: ['body', 'batch', '1', 'payload', 'value'] }],
    });
    expect((await store.feedbackQuery({ project_id: 'fa/batch' }, ctx)).total_count).toBe(0);
  });
});
