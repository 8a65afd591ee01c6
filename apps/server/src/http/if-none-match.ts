// RFC 9110 §13.1.2: the origin answers 304 when If-None-Match lists the current entity tag (weak
// comparison) or `*`. Express's req.fresh also honours a request's `Cache-Control: no-cache`,
// which Node's fetch adds to every conditional request: that directive is for caches, not for
// the origin, and would make every router poll download the whole catalogue.
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === current);
}
