// A signal that fires when the client goes away before its answer was written whole: the router
// aborts the upstream request at once (a provider stops generating, and billing, when its
// connection closes), whether the answer is still awaited or already streaming.
import type { Response } from 'express';

export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before the answer was complete');
    this.name = 'ClientGoneError';
  }
}

export function abortWhenClientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  // 'close' comes after 'finish' on a complete answer too; only an unfinished one is an abort.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new ClientGoneError());
  });
  return controller.signal;
}
