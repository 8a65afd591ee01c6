// One deadline per request (REQUEST_TIMEOUT), from its arrival to its last byte answered: it bounds
// receiving the body, waiting for a database connection, every statement (the store's drivers read
// it: @weft/store's withDeadline) and writing the answer. Past it, a request still receiving its
// body is answered 408; one waiting on anything else 503 DeadlineExceeded, and its database work
// is cancelled as it next touches the database; one already answering is cut (its status line is
// sent, so the client sees a broken answer, never a complete-looking partial one).
import type { RequestHandler, Request, Response } from 'express';
import { deadlineExceeded, requestTimeout } from '@weft/core';
import { withDeadline } from '@weft/store';
import { hasBody } from './body/read-bytes.ts';
import { errorHandler } from './error-handler.ts';

const timers = new WeakMap<Response, NodeJS.Timeout>();

export function requestDeadlines(timeoutMs: number): RequestHandler {
  const seconds = `${Math.round(timeoutMs / 100) / 10} s`;
  const reason = `The request did not finish within its deadline of ${seconds} (REQUEST_TIMEOUT)`;
  return (req, res, next) => {
    const timer = setTimeout(() => expire(req, res, seconds), timeoutMs);
    timers.set(res, timer);
    res.once('close', () => clearTimeout(timer));
    withDeadline({ at: Date.now() + timeoutMs, reason }, next);
  };
}

/**
 * Lifts the deadline from the rest of the answer: for the router's operations, whose upstream
 * attempts are bounded by the providers' own timeouts (connect, first byte, idle, total) and whose
 * streams may rightly last longer than REQUEST_TIMEOUT. Called once the request was read,
 * validated and admitted. Database work started afterwards in the request's async context still
 * carries the original deadline (@weft/store's withDeadline).
 */
export function releaseDeadline(res: Response): void {
  clearTimeout(timers.get(res));
}

function expire(req: Request, res: Response, seconds: string): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const receiving = hasBody(req) && !req.complete;
  const err = receiving
    ? requestTimeout(`The request's body did not arrive within ${seconds} (REQUEST_TIMEOUT)`)
    : deadlineExceeded(`The request did not finish within its deadline of ${seconds} (REQUEST_TIMEOUT); its work was cancelled`);
  req.log?.warn({ error_type: err.errorType }, err.message);
  errorHandler(err, req, res, () => undefined);
}
