/** The identity of one endpoint of one router model: health and stats are kept per key. */
export function endpointKey(model: string, provider: string, upstreamModel: string): string {
  return `${model}\u0000${provider}\u0000${upstreamModel}`;
}
