// One trial of eval_results/query as the wire shows it, from a predict-and-score call and its
// child calls, for both SDKs' shapes: Python's output `{output, scores, model_latency}` and the
// TypeScript SDK's `{model_success, model_output, scores, model_latency}`.
import type * as T from '@weft/types';
import { opNameOf, type ChildCall, type TrialDetail } from './eval-calls-read.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isScoreCall(child: ChildCall): boolean {
  return child.weaveScore === 'true' || (child.metaScore !== null && child.metaScore !== false && child.metaScore !== undefined);
}

/**
 * The child that ran the model: the op the trial's `model` names (a function model), the call
 * whose `self` is that model (a Model's predict), else a child not marked as a score whose op
 * name says predict or invoke (Weave's fallback).
 */
export function predictCallOf(children: readonly ChildCall[], modelRef: unknown, scoreKeys: readonly string[]): ChildCall | undefined {
  const candidates = children.filter((c) => !isScoreCall(c));
  if (typeof modelRef === 'string') {
    const byOp = candidates.find((c) => c.opName === modelRef);
    if (byOp) return byOp;
  }
  if (modelRef !== null && modelRef !== undefined) {
    const bySelf = candidates.find((c) => c.inputSelf !== null && JSON.stringify(c.inputSelf) === JSON.stringify(modelRef));
    if (bySelf) return bySelf;
  }
  const keys = new Set(scoreKeys.map((k) => k.toLowerCase()));
  return candidates.find((c) => {
    const name = opNameOf(c.opName).toLowerCase();
    return !keys.has(name) && (name.includes('predict') || name.includes('invoke'));
  });
}

/** Each score's call: the child whose op is named as the scorer, or `<scorer>.score`, else one whose name contains it. */
export function scorerCallIds(
  children: readonly ChildCall[],
  predict: ChildCall | undefined,
  scoreKeys: readonly string[],
): Record<string, string> {
  const others = children.filter((c) => c !== predict);
  const out: Record<string, string> = {};
  for (const key of scoreKeys) {
    const k = key.toLowerCase();
    const names = others.map((c) => [c, opNameOf(c.opName).toLowerCase()] as const);
    const match =
      names.find(([, n]) => n === k || n === `${k}.score`) ?? names.find(([c, n]) => isScoreCall(c) && (n.includes(k) || k.includes(n)));
    if (match) out[key] = match[0].id;
  }
  return out;
}

function seconds(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** The sum of total_tokens over the models of a call's summary.usage; null when none reports it. */
function totalTokens(usage: unknown): number | null {
  if (!isRecord(usage)) return null;
  let total = 0;
  let found = false;
  for (const model of Object.values(usage)) {
    const tokens = isRecord(model) ? model.total_tokens : undefined;
    if (typeof tokens === 'number' && Number.isFinite(tokens)) {
      total += Math.trunc(tokens);
      found = true;
    }
  }
  return found ? total : null;
}

function recordedLatency(output: Record<string, unknown>): number | null {
  const latency = output.model_latency;
  if (typeof latency === 'number' && Number.isFinite(latency)) return latency;
  if (isRecord(latency) && typeof latency.mean === 'number' && Number.isFinite(latency.mean)) return latency.mean;
  return null;
}

export function toTrial(id: string, detail: TrialDetail | undefined, children: readonly ChildCall[] | undefined): T.EvalResultsTrial {
  const output = isRecord(detail?.output) ? detail.output : {};
  const scores = isRecord(output.scores) ? output.scores : {};
  const modelOutput = 'model_output' in output ? output.model_output : output.output;
  const keys = Object.keys(scores);
  const predict = children ? predictCallOf(children, detail?.modelRef, keys) : undefined;
  return {
    predict_and_score_call_id: id,
    predict_call_id: predict?.id ?? null,
    model_output: modelOutput ?? null,
    scores,
    model_latency_seconds: (predict ? seconds(predict.startedAt, predict.endedAt) : null) ?? recordedLatency(output),
    total_tokens: predict ? totalTokens(predict.usage) : null,
    scorer_call_ids: children ? scorerCallIds(children, predict, keys) : {},
  };
}
