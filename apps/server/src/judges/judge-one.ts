// One judgement: the scorer and its model read from the project, the judged call's inputs and
// output put into the scoring prompt, one chat completion through the router (recorded as a router
// call, priced, counted against the project's limits), and the answer written as Weave's runnable
// feedback on the judged call. Its id was chosen when the judgement was queued, so a judgement
// done again after a restart (the process died after the feedback, before the judgement was
// settled) writes the same feedback row once (feedback/create with an id is idempotent).
import {
  formatScoringPrompt,
  isWeftError,
  judgeChatRequest,
  judgeResult,
  parseWeaveRef,
  readJudgeModel,
  readJudgeScorer,
  type JudgeModel,
} from '@weft/core';
import { isRouterError, type ChatCompletionReq, type Router, type RouterLimits } from '@weft/router';
import type { ClaimedJudgement, JudgementOutcome, ReadingContext, Store } from '@weft/store';
import type { CallRecorder, RecordHandle } from '../router/record-call.ts';
import { startRequest } from '../router/request-handle.ts';
import { recordContentFor } from '../router/router-project.ts';

export interface JudgeDeps {
  store: Store;
  router: () => Router | undefined;
  recorder: CallRecorder;
  routerLimits: RouterLimits | undefined;
}

export interface JudgeOptions {
  /** Sends to the router per judgement before it fails. */
  maxAttempts: number;
  /** The wait before a retry: grows with each attempt. */
  backoffMs: (attempt: number) => number;
  /** The longest one chat completion may take. */
  timeoutMs: number;
  /** How often a judgement of a call still running looks again. */
  waitMs: number;
  /** How long a call may run before its judgement gives up waiting. */
  maxRunningMs: number;
  /** Aborted when the server stops: the request ends and the judgement is queued again. */
  signal?: AbortSignal;
}

/** Why a judgement cannot be done: no retry helps. */
class Unjudgeable extends Error {}

export async function judgeOne(deps: JudgeDeps, held: ClaimedJudgement, opts: JudgeOptions): Promise<JudgementOutcome> {
  const none = { judge_call_id: null, cost_usd: null };
  let setup: { model: JudgeModel; prompt: string; scorerName: string } | 'running';
  try {
    setup = await prepare(deps.store, held, opts);
  } catch (err) {
    // What is missing or refused (a deleted call, a ref of another project) stays so.
    if (err instanceof Unjudgeable || (isWeftError(err) && err.status < 500)) return { state: 'failed', error: err.message, ...none };
    return retry(held, opts, `reading the scorer or the call failed: ${(err as Error).message}`, none);
  }
  if (setup === 'running') return { state: 'waiting', due_at: new Date(Date.now() + opts.waitMs) };
  const router = deps.router();
  if (!router) return { state: 'failed', error: `no router is configured: model ${setup.model.llm_model_id} cannot be asked`, ...none };

  const principal = { username: held.requested_by, entities: [held.project_id.split('/')[0]!], keyId: 'judge', scope: 'write' as const };
  const refusal = await deps.routerLimits?.admit(principal.keyId, held.project_id);
  if (refusal) return retry(held, opts, `the router's limits refused the judge: ${refusal.message}`, none);

  const body = judgeChatRequest(setup.model, setup.prompt) as ChatCompletionReq;
  const call: RecordHandle = startRequest(
    { recorder: deps.recorder, limits: deps.routerLimits },
    {
      projectId: held.project_id,
      principal,
      op: 'openai.chat.completions.create',
      inputs: body,
      recordContent: recordContentFor(router.config.projects, held.project_id, {}),
      parent: undefined,
      startedAt: new Date(),
      requestedModel: setup.model.llm_model_id,
      stream: false,
      judge: { judgement_id: held.id, call_id: held.call_id, scorer_ref: held.scorer_ref, monitor_ref: held.monitor_ref },
    },
    router.config,
  );
  const judge_call_id = call.callId || null;
  let outcome;
  try {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    outcome = await router.chat(body, { signal: opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout });
  } catch (err) {
    const error = isRouterError(err) ? err.toBody() : undefined;
    call.finish({ output: undefined, served: undefined, priced: undefined, attempts: [], error, endedAt: new Date() });
    const why = error ? `the router answered ${error.status}: ${error.message}` : `the router failed: ${(err as Error).message}`;
    // Stopped with the server: the next judge takes it from the queue.
    if (opts.signal?.aborted)
      return retry(held, { ...opts, maxAttempts: Infinity, backoffMs: () => 0 }, 'the server stopped while the judge waited', {
        judge_call_id,
        cost_usd: null,
      });
    // Refusals of the request itself (an unknown model, a bad parameter) come back the same every time.
    if (error && error.status < 500 && error.status !== 408 && error.status !== 429)
      return { state: 'failed', error: why, judge_call_id, cost_usd: null };
    return retry(held, opts, why, { judge_call_id, cost_usd: null });
  }
  if (outcome.kind !== 'json') throw new Error('the judge asked for a whole answer and got a stream');
  call.finish({ ...outcome, output: outcome.body, error: undefined, endedAt: new Date() });
  const cost_usd = outcome.priced?.cost_usd ?? null;
  const result = judgeResult(outcome.body, setup.model.response_format);
  if ('error' in result) return { state: 'failed', error: result.error, judge_call_id, cost_usd };

  const ref = (id: string) => `weave:///${held.project_id}/call/${id}`;
  await deps.store.feedbackCreate(
    {
      id: held.feedback_id,
      project_id: held.project_id,
      weave_ref: ref(held.call_id),
      feedback_type: `wandb.runnable.${setup.scorerName}`,
      payload: { output: result.value },
      runnable_ref: held.scorer_ref,
      call_ref: judge_call_id ? ref(judge_call_id) : null,
      trigger_ref: held.monitor_ref,
    },
    { user: held.requested_by },
  );
  return { state: 'done', judge_call_id, cost_usd };
}

function retry(
  held: ClaimedJudgement,
  opts: JudgeOptions,
  error: string,
  spent: { judge_call_id: string | null; cost_usd: string | null },
): JudgementOutcome {
  if (held.attempts >= opts.maxAttempts) return { state: 'failed', error: `${error} (after ${held.attempts} attempts)`, ...spent };
  return { state: 'queued', due_at: new Date(Date.now() + opts.backoffMs(held.attempts)), error, ...spent };
}

async function prepare(
  store: Store,
  held: ClaimedJudgement,
  opts: JudgeOptions,
): Promise<{ model: JudgeModel; prompt: string; scorerName: string } | 'running'> {
  // Refs are followed within the judged call's project only.
  const ctx: ReadingContext = { user: held.requested_by, mayRead: (p) => p === held.project_id };
  const scorerRef = parseWeaveRef(held.scorer_ref);
  if ('error' in scorerRef || scorerRef.kind !== 'object') throw new Unjudgeable(`${held.scorer_ref} is not an object ref`);
  const [scorerVal] = (await store.refsReadBatch({ refs: [held.scorer_ref] }, ctx)).vals;
  const scorer = readJudgeScorer(scorerVal);
  if ('error' in scorer) throw new Unjudgeable(`${held.scorer_ref} ${scorer.error}`);
  const modelVal = typeof scorer.model === 'string' ? (await store.refsReadBatch({ refs: [scorer.model] }, ctx)).vals[0] : scorer.model;
  const model = readJudgeModel(modelVal);
  if ('error' in model) throw new Unjudgeable(`${held.scorer_ref}: ${model.error}`);
  const { call } = await store.callRead({ project_id: held.project_id, id: held.call_id }, ctx);
  if (call.ended_at == null) {
    if (Date.now() - Date.parse(call.started_at) < opts.maxRunningMs) return 'running';
    throw new Unjudgeable(`the call ${held.call_id} did not end within ${opts.maxRunningMs / 60_000} minutes of its start`);
  }
  const values = { ...(call.inputs as Record<string, unknown>), output: call.output };
  const prompt = formatScoringPrompt(scorer.scoring_prompt, values);
  if (typeof prompt !== 'string') throw new Unjudgeable(prompt.error);
  return { model, prompt, scorerName: scorerRef.name };
}
