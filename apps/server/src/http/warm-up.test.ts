// Before the server listens, every validation step sees a stand-in request of every operation it
// validates (so express-openapi-validator compiles them all then, not on a client's request).
import express, { type Request } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { expect, it } from 'vitest';
import { operations } from './spec.ts';
import { compose } from './compose.ts';
import { validatorOptions } from './validator-options.ts';
import { warmUpValidators } from './warm-up.ts';

it('runs every step once on a request of every operation but the streamed and bytes ones, and drops their refusals', async () => {
  const seen: string[][] = [[], []];
  const step = (i: number) => async (req: Request) => {
    seen[i]!.push(`${req.method} ${req.path} ${req.headers['content-type'] ?? '-'} ${JSON.stringify(req.query)}`);
    await Promise.resolve();
    throw Object.assign(new Error('request validation failed'), { status: 400 });
  };
  await warmUpValidators(express(), [step(0), step(1)], operations);

  const expected = operations
    .filter((op) => op.bodyMode !== 'stream' && op.bodyMode !== 'bytes')
    .map((op) => {
      const type = { json: 'application/json', lossless: 'application/json', multipart: 'multipart/form-data; boundary=weft-warm-up' }[
        op.bodyMode as string
      ];
      return `${op.method.toUpperCase()} ${op.path.replace(/\{[^}]+\}/g, 'warm-up')} ${type ?? '-'} {}`;
    });
  expect(seen[0]).toEqual(expected);
  expect(seen[1]).toEqual(expected);
  expect(expected.length).toBeGreaterThan(20);
  expect(expected.some((line) => line.startsWith('POST /v1/preview/models/warm-up/log'))).toBe(false);
});

it('fails on anything but a refusal: a validator that does not compile would answer 500 to every request', async () => {
  const broken = async () => {
    throw new Error("can't resolve reference #/components/schemas/Missing");
  };
  await expect(warmUpValidators(express(), [broken], operations)).rejects.toThrow(/can't resolve reference/);
});

it("compiles every operation's validators, first-error and all-errors, from the spec (none fails to compile)", async () => {
  const app = express();
  const steps = [false, true].map((allErrors) => compose(OpenApiValidator.middleware(validatorOptions(allErrors))));
  await expect(warmUpValidators(app, steps, operations)).resolves.toBeUndefined();
}, 60_000);
