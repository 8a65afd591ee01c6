// A fetch that passes requests on and keeps a copy of every answer, so the suite can check each
// answer against the spec after a test, whatever the test itself asserted.

export interface Exchange {
  method: string;
  url: URL;
  status: number;
  headers: Headers;
  /** The body as received (read from a clone; the caller still gets the untouched answer). */
  text: string;
}

export interface ExchangeRecorder {
  /** Inject into the client. */
  fetch: (request: Request) => Promise<Response>;
  /** The exchanges since the last take, oldest first; empties the log. */
  take(): Exchange[];
  /** The most recent exchange, if any, without taking it. */
  last(): Exchange | undefined;
}

export function createExchangeRecorder(next: (request: Request) => Promise<Response> = (r) => globalThis.fetch(r)): ExchangeRecorder {
  let log: Exchange[] = [];
  return {
    async fetch(request) {
      const method = request.method;
      const url = new URL(request.url);
      const response = await next(request);
      const text = await response.clone().text();
      log.push({ method, url, status: response.status, headers: response.headers, text });
      return response;
    },
    take() {
      const taken = log;
      log = [];
      return taken;
    },
    last: () => log.at(-1),
  };
}
