// Compiles every operation's request validator before the server listens. express-openapi-
// validator prepares the spec on the first request (about a second, in one block) and compiles an
// operation's validator on that operation's first request (each takes a while): in a rolling
// deploy, the first requests a new replica gets would hold its event loop. Each validation step is
// run once here on a stand-in request of every operation; its refusal (a 4xx) is the expected
// outcome and is dropped. Anything else (a schema that does not compile) fails the start: dropped,
// it would have come back as a 500 on every request of that operation.
import type { Express, Request, Response } from 'express';
import type { SpecOperation } from '@weft/types/spec';

type Step = (req: Request, res: Response) => Promise<void>;

const CONTENT_TYPE: Partial<Record<SpecOperation['bodyMode'], string>> = {
  json: 'application/json',
  lossless: 'application/json',
  multipart: 'multipart/form-data; boundary=weft-warm-up',
};

export async function warmUpValidators(app: Express, steps: readonly Step[], operations: readonly SpecOperation[]): Promise<void> {
  for (const op of operations) {
    // Streamed and bytes bodies are read by their own code, not by these steps.
    if (op.bodyMode === 'stream' || op.bodyMode === 'bytes') continue;
    const path = op.path.replace(/\{[^}]+\}/g, 'warm-up');
    const contentType = CONTENT_TYPE[op.bodyMode];
    for (const step of steps) {
      // Express's own request and response prototypes, so the validator finds what it reads.
      const req = Object.create(app.request) as Request;
      Object.assign(req, {
        method: op.method.toUpperCase(),
        url: path,
        originalUrl: path,
        baseUrl: '',
        headers: contentType ? { 'content-type': contentType } : {},
        body: {},
        params: {},
      });
      Object.defineProperty(req, 'path', { value: path });
      Object.defineProperty(req, 'query', { value: {}, writable: true });
      await step(req, Object.create(app.response) as Response).catch((err: unknown) => {
        if (!isRefusal(err)) throw err;
      });
    }
  }
}

/** The validator's answer to a stand-in request: an HTTP error below 500 (400, 415…). */
function isRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
