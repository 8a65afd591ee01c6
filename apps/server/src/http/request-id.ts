// Every request gets an id: a valid incoming X-Request-Id (set by a load balancer, a proxy or the
// client) is adopted, otherwise a new UUIDv7, unique across replicas and restarts. It goes back in
// the X-Request-Id header, onto every log line of the request (pino-http's `req.id`) and into 5xx
// bodies, so a user can quote it and an operator can find the request in any replica's logs.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { uuidv7 } from '@weft/core';

/** What is adopted: short, printable, nothing a log or header could be confused by. */
const ADOPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const id = (req as IncomingMessage & { id?: unknown }).id;
  return typeof id === 'string' ? id : '';
}

export const requestIds: RequestHandler = (req, res, next) => {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && ADOPTABLE.test(incoming) ? incoming : uuidv7();
  (req as IncomingMessage & { id: string }).id = id;
  res.setHeader('X-Request-Id', id);
  next();
};
