// Parsing of Weave's external refs (`weave:///<entity>/<project>/<kind>/…`: what feedback points
// at and refs/read_batch reads), with the rules of Weave's refs_internal.py: object and op refs
// are `<name>:<version>` followed by optional (edge, value) pairs; names and versions contain
// neither '/' nor ':'.
export type WeaveRef =
  | { kind: 'object'; projectId: string; name: string; version: string; extra: string[] }
  | { kind: 'op'; projectId: string; name: string; version: string; extra: string[] }
  | { kind: 'call'; projectId: string; id: string }
  | { kind: 'table'; projectId: string; digest: string };

const SCHEME = 'weave:///';
const EDGE_NAMES = new Set(['key', 'index', 'attr', 'id']);

/** The parsed ref, or an error message saying why `uri` is not one. */
export function parseWeaveRef(uri: string): WeaveRef | { error: string } {
  if (!uri.startsWith(SCHEME)) return { error: `Invalid ref ${uri}: must start with ${SCHEME}` };
  const [entity = '', project = '', kind = '', ...rest] = uri.slice(SCHEME.length).split('/');
  if (!entity || !project) return { error: `Invalid ref ${uri}: no <entity>/<project>` };
  const projectId = `${entity}/${project}`;
  const head = rest[0] ?? '';
  switch (kind) {
    case 'call':
      return head ? { kind, projectId, id: head } : { error: `Invalid ref ${uri}: no call id` };
    case 'table':
      return head ? { kind, projectId, digest: head } : { error: `Invalid ref ${uri}: no table digest` };
    case 'object':
    case 'op': {
      const parts = head.split(':');
      const [name = '', version = ''] = parts;
      if (parts.length !== 2 || !name || !version) return { error: `Invalid ref ${uri}: expected <name>:<version>` };
      // A trailing '/' leaves one empty part, which Weave ignores.
      const extra = rest.length === 2 && rest[1] === '' ? [] : rest.slice(1).map(decodeExtra);
      const bad = extraError(extra);
      return bad ? { error: `Invalid ref ${uri}: ${bad}` } : { kind, projectId, name, version, extra };
    }
    default:
      return { error: `Invalid ref ${uri}: unknown kind ${JSON.stringify(kind)}` };
  }
}

function decodeExtra(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // Python's unquote leaves malformed escapes as they are.
  }
}

function extraError(extra: string[]): string | undefined {
  if (extra.length % 2 !== 0) return 'extra path parts must be (edge, value) pairs';
  for (let i = 0; i < extra.length; i += 2) {
    const edge = extra[i] ?? '';
    if (!EDGE_NAMES.has(edge)) return `invalid edge name ${JSON.stringify(edge)}`;
    if (edge === 'index' && !/^\s*[+-]?[0-9]+\s*$/.test(extra[i + 1] ?? '')) return 'an index edge needs an integer';
  }
  return undefined;
}
