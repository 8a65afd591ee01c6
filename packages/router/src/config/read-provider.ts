import type { Node } from 'yaml';
import type { ProviderConfig, ProviderTimeouts } from '../types.ts';
import { DEFAULT_TIMEOUTS } from './defaults.ts';
import type { YamlReader } from './yaml-reader.ts';

const PROVIDER_KEYS: ReadonlySet<string> = new Set(['base_url', 'api_key_env', 'headers', 'timeouts']);
const TIMEOUT_KEYS = ['connect_ms', 'first_byte_ms', 'idle_ms', 'total_ms'] as const;
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Credentials belong in api_key_env (read at run time, never printed), not in the file. */
const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'cookie']);

/** One entry of `providers:` (`id` is its key). Undefined when it has problems (all reported). */
export function readProvider(r: YamlReader, id: string, node: Node | null, path: string): ProviderConfig | undefined {
  const before = r.count;
  if (!PROVIDER_ID.test(id)) r.report(node, path, `provider id ${JSON.stringify(id)} must be letters, digits, ".", "_" or "-"`);
  const fields = r.map(node, path, PROVIDER_KEYS);
  if (!fields) return undefined;

  let base_url = '';
  const urlNode = fields.get('base_url');
  if (urlNode === undefined) r.report(node, fields.at('base_url'), 'is required');
  else {
    const text = r.string(urlNode, fields.at('base_url'));
    if (text !== undefined) {
      const problem = checkBaseUrl(text);
      if (problem) r.report(urlNode, fields.at('base_url'), problem);
      else base_url = text.replace(/\/+$/, '');
    }
  }

  const provider: ProviderConfig = { id, base_url, headers: {}, timeouts: { ...DEFAULT_TIMEOUTS } };
  const envNode = fields.get('api_key_env');
  if (envNode !== undefined) {
    const name = r.string(envNode, fields.at('api_key_env'));
    if (name !== undefined && !ENV_NAME.test(name)) {
      r.report(
        envNode,
        fields.at('api_key_env'),
        `${JSON.stringify(name)} is not an environment variable name (the key itself never goes in this file)`,
      );
    } else if (name !== undefined) provider.api_key_env = name;
  }

  const headersNode = fields.get('headers');
  if (headersNode !== undefined) {
    const headers = r.map(headersNode, fields.at('headers'));
    for (const [name, entry] of headers?.entries ?? []) {
      const at = headers!.at(name);
      if (!HEADER_NAME.test(name)) r.report(entry.key, at, 'is not a valid header name');
      else if (SECRET_HEADERS.has(name.toLowerCase())) r.report(entry.key, at, 'credentials go in api_key_env, not in headers');
      else {
        const value = r.string(entry.value, at);
        if (value !== undefined && /[\r\n\0]/.test(value)) r.report(entry.value, at, 'must not contain line breaks');
        else if (value !== undefined) provider.headers[name] = value;
      }
    }
  }

  const timeoutsNode = fields.get('timeouts');
  if (timeoutsNode !== undefined) provider.timeouts = readTimeouts(r, timeoutsNode, fields.at('timeouts'));
  return r.count === before ? provider : undefined;
}

function readTimeouts(r: YamlReader, node: Node | null, path: string): ProviderTimeouts {
  const out: ProviderTimeouts = { ...DEFAULT_TIMEOUTS };
  const fields = r.map(node, path, new Set(TIMEOUT_KEYS));
  for (const key of TIMEOUT_KEYS) {
    const value = fields?.get(key);
    if (value === undefined) continue;
    const ms = r.integer(value, fields!.at(key), 1);
    if (ms !== undefined) out[key] = ms;
  }
  if (fields && out.total_ms < out.first_byte_ms) {
    r.report(fields.node, path, `total_ms ${out.total_ms} is shorter than first_byte_ms ${out.first_byte_ms}`);
  }
  return out;
}

function checkBaseUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${JSON.stringify(text)} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${JSON.stringify(text)} must be http or https`;
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (use api_key_env)';
  if (url.search !== '' || url.hash !== '') return 'must not have a query or fragment';
  return undefined;
}
