// compose runs express-openapi-validator's middlewares as one awaited step. Its response
// validation reports a bad answer by calling next(err) from inside res.json, after the step is
// over: that error must reach onLateError (the server answers 500), never vanish (a hang).
import type { Request, RequestHandler, Response } from 'express';
import { expect, it } from 'vitest';
import { compose } from './compose.ts';

const req = {} as Request;
const res = {} as Response;

it('runs the middlewares in order and settles once', async () => {
  const seen: string[] = [];
  const step = compose([(_q, _s, next) => (seen.push('a'), next()), (_q, _s, next) => (seen.push('b'), next())]);
  await step(req, res);
  expect(seen).toEqual(['a', 'b']);
  await expect(compose([(_q, _s, next) => next(new Error('refused'))])(req, res)).rejects.toThrow('refused');
});

it('hands an error passed to next() after the step to onLateError', async () => {
  let later: (err: unknown) => void = () => undefined;
  const validator: RequestHandler = (_q, _s, next) => {
    later = next;
    next();
  };
  const late: Array<{ err: Error; req: Request; res: Response }> = [];
  await compose([validator], (err, q, s) => late.push({ err, req: q, res: s }))(req, res);
  later(new Error('the answer breaks the spec'));
  expect(late).toHaveLength(1);
  expect(late[0]!.err.message).toBe('the answer breaks the spec');
  expect(late[0]!.req).toBe(req);
  expect(late[0]!.res).toBe(res);
});
