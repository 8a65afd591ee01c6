// The URL to reach a server listening on HOST and PORT from this machine: a wildcard address
// (0.0.0.0, ::) is not one a browser should be sent to, so it becomes the loopback address.
export function serverUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
