// What follows one router request after it is admitted: its call record (unless the router file
// says `record_calls: false`) and, once it is priced, its tokens and cost counted against the
// key's and the project's limits. The handler starts one per request and finishes it once.
import type { RouterConfig, RouterLimits } from '@weft/router';
import type { CallRecorder, RecordFinish, RecordHandle, RecordStart } from './record-call.ts';

/** A request the operator chose not to record: no call, no id. */
const UNRECORDED: RecordHandle = { callId: '', traceId: '', finish: () => {} };

export function startRequest(
  parts: { recorder: CallRecorder; limits: RouterLimits | undefined },
  start: RecordStart,
  config: RouterConfig | undefined,
): RecordHandle {
  const call = config?.record_calls === false ? UNRECORDED : parts.recorder.start(start);
  const { limits } = parts;
  if (!limits) return call;
  return {
    callId: call.callId,
    traceId: call.traceId,
    finish(f: RecordFinish) {
      call.finish(f);
      if (!f.priced) return;
      const tokens = f.priced.usage.total_tokens;
      // The limits count alone while Redis fails (limits/redis-circuit.ts): a rejection here is a
      // bug, reported without failing an answer that has already been sent.
      limits.account(start.principal.keyId, start.projectId, tokens, f.priced.cost_usd).catch((err: unknown) => {
        process.emitWarning(err instanceof Error ? err : new Error(String(err)), 'RouterLimitsWarning');
      });
    },
  };
}
