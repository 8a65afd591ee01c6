// A fetch that answers from a function and remembers what it was asked: injected into the
// client instead of patching the global fetch.
export interface FakeFetch {
  fetch: (request: Request) => Promise<Response>;
  requests: Request[];
  /** The only request made; fails when there were none or several. */
  only(): Request;
}

export function fakeFetch(answer: (request: Request) => Response | Promise<Response>): FakeFetch {
  const requests: Request[] = [];
  return {
    requests,
    async fetch(request) {
      requests.push(request);
      return answer(request);
    },
    only() {
      if (requests.length !== 1) throw new Error(`expected 1 request, got ${requests.length}`);
      return requests[0]!;
    },
  };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
