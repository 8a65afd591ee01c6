import { invalidRequest, parseWeaveRef } from '@weft/core';
import { readingContextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function refHandlers({ store, auth }: Deps) {
  return handlers({
    async refsReadBatch({ body, principal }) {
      // Each ref names its own project: every one must be the caller's before anything is read.
      // The refs stored inside what they read are checked by the store, hop by hop.
      for (const uri of body.refs) {
        const ref = parseWeaveRef(uri);
        if ('error' in ref) throw invalidRequest(ref.error);
        requireProject(auth, principal, ref.projectId);
      }
      return store.refsReadBatch(body, readingContextOf(auth, principal));
    },
  });
}
