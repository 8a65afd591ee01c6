import type { PricedUsage, RouterErrorBody, Served } from '../types.ts';

/** What the relay of one stream needs to know about the request and the endpoint serving it. */
export interface ServedStream {
  served: Served;
  /** Forward the usage chunk (the caller asked, or the router always sends it). */
  include_usage: boolean;
  /** Longest gap between two upstream events. */
  idle_ms: number;
  /** Text never to repeat (the provider's key), e.g. in an upstream error message. */
  secrets: readonly string[];
  ttft_ms: number | undefined;
  /** Told once when the stream ends: health, metrics. */
  report(error: RouterErrorBody | undefined, priced: PricedUsage | undefined): void;
}
