import { notImplemented } from '@weft/core';
import { handlers, type Deps } from './handler.ts';

// The router's operations. Until the router package serves them they answer 501 (the lead's
// skeleton commit; replaced by the router issue's handlers).
export function routerHandlers(_deps: Deps) {
  return handlers({
    async routerChatCompletionsCreate() {
      throw notImplemented('The inference router does not route requests yet');
    },
    async routerEmbeddingsCreate() {
      throw notImplemented('The inference router does not route requests yet');
    },
    async routerEndpointsList() {
      return { data: [] };
    },
  });
}
