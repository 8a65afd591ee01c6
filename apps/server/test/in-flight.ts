// How many requests the server is serving, from its own gauge on /metrics (which needs no
// credentials): a test waits on this, not on a fixed time, for a request it sent to be in flight.

/** `weft_http_requests_in_flight`, the scrape itself included (it is in flight while it is answered). */
export async function requestsInFlight(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = /^weft_http_requests_in_flight (\S+)$/m.exec(text)?.[1];
  if (value === undefined) throw new Error('no weft_http_requests_in_flight on /metrics');
  return Number(value);
}
