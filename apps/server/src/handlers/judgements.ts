// LLM-as-judge: calls/score queues, the judges (src/judges/) do the work; the reads of judgements.
import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function judgementHandlers({ store, auth }: Deps) {
  return handlers({
    async callsScore({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.callsScore(body, contextOf(principal));
    },
    async judgementsQuery({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.judgementsQuery(body, contextOf(principal));
    },
    async judgementsStats({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.judgementsStats(body, contextOf(principal));
    },
  });
}
