import { SAMPLING_PARAMETERS, SUPPORTED_FEATURES, type Catalogue, type ModelEntry, type ModelPricing } from '@weft/core';
import type { Node } from 'yaml';
import type { EndpointConfig, ProviderConfig, RouterModelConfig } from '../types.ts';
import { DEFAULT_SAMPLING } from './defaults.ts';
import type { Fields, YamlReader } from './yaml-reader.ts';

const ENTRY_KEYS = [
  'name',
  'created',
  'input_modalities',
  'output_modalities',
  'context_length',
  'max_output_length',
  'supported_sampling_parameters',
  'supported_features',
  'deprecation_date',
] as const;
const MODEL_KEYS: ReadonlySet<string> = new Set(['id', 'endpoints', ...ENTRY_KEYS]);
const ENDPOINT_KEYS: ReadonlySet<string> = new Set(['provider', 'model', 'pricing', 'context_length', 'datacenters']);
const PRICE_KINDS = ['prompt', 'completion', 'image', 'request', 'input_cache_read'] as const;
const COUNTRY = /^[A-Z]{2}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * One entry of `models:`. The GET /models entry takes what the file gives, then the shipped
 * catalogue's entry of the same id, then defaults; its pricing is the first endpoint's.
 */
export function readModel(
  r: YamlReader,
  node: Node | null,
  path: string,
  providers: ReadonlyMap<string, ProviderConfig>,
  shipped: Catalogue,
): RouterModelConfig | undefined {
  const before = r.count;
  const fields = r.map(node, path, MODEL_KEYS);
  if (!fields) return undefined;
  const idNode = fields.get('id');
  let id: string | undefined;
  if (idNode === undefined) r.report(node, fields.at('id'), 'is required');
  else {
    id = r.string(idNode, fields.at('id'));
    if (id !== undefined && /\s/.test(id)) r.report(idNode, fields.at('id'), `${JSON.stringify(id)} must not contain whitespace`);
  }

  const endpoints: EndpointConfig[] = [];
  const endpointsNode = fields.get('endpoints');
  if (endpointsNode === undefined) r.report(node, fields.at('endpoints'), 'is required');
  else {
    const items = r.seq(endpointsNode, fields.at('endpoints'));
    if (items && items.length === 0) r.report(endpointsNode, fields.at('endpoints'), 'must list at least one endpoint');
    const seen = new Set<string>();
    items?.forEach((item, i) => {
      const at = `${fields.at('endpoints')}[${i}]`;
      const endpoint = readEndpoint(r, item, at, providers, id);
      if (!endpoint) return;
      const pair = `${endpoint.provider} ${endpoint.model}`;
      if (seen.has(pair)) r.report(item, at, `duplicate endpoint (provider ${endpoint.provider}, model ${endpoint.model})`);
      seen.add(pair);
      endpoints.push(endpoint);
    });
  }

  const entry = id === undefined ? undefined : readEntry(r, fields, id, shipped.byId(id), endpoints);
  if (r.count > before || id === undefined || entry === undefined) return undefined;
  return { id, entry, endpoints };
}

function readEndpoint(
  r: YamlReader,
  node: Node | null,
  path: string,
  providers: ReadonlyMap<string, ProviderConfig>,
  modelId: string | undefined,
): EndpointConfig | undefined {
  const before = r.count;
  const fields = r.map(node, path, ENDPOINT_KEYS);
  if (!fields) return undefined;
  let provider = '';
  const providerNode = fields.get('provider');
  if (providerNode === undefined) r.report(node, fields.at('provider'), 'is required');
  else {
    const name = r.string(providerNode, fields.at('provider'));
    if (name !== undefined && !providers.has(name)) {
      const known = [...providers.keys()];
      r.report(
        providerNode,
        fields.at('provider'),
        `${JSON.stringify(name)} is not a provider of this file (${known.length ? known.join(', ') : 'none declared'})`,
      );
    } else if (name !== undefined) provider = name;
  }
  // The upstream name defaults to the router model id (OpenAI's own names, say).
  const modelNode = fields.get('model');
  const model = modelNode === undefined ? (modelId ?? '') : (r.string(modelNode, fields.at('model')) ?? '');

  const pricingNode = fields.get('pricing');
  let pricing: ModelPricing = { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' };
  if (pricingNode === undefined) r.report(node, fields.at('pricing'), 'is required (USD per token; {} for a free endpoint)');
  else pricing = readPricing(r, pricingNode, fields.at('pricing'));

  const endpoint: EndpointConfig = { provider, model, pricing, datacenters: [] };
  const contextNode = fields.get('context_length');
  if (contextNode !== undefined) {
    const n = r.integer(contextNode, fields.at('context_length'), 1);
    if (n !== undefined) endpoint.context_length = n;
  }
  const dcNode = fields.get('datacenters');
  if (dcNode !== undefined) {
    endpoint.datacenters =
      r.stringList(dcNode, fields.at('datacenters'), (s) =>
        COUNTRY.test(s) ? undefined : `${JSON.stringify(s)} is not an upper-case ISO 3166-1 alpha-2 code`,
      ) ?? [];
  }
  return r.count === before ? endpoint : undefined;
}

/** USD per token (per request, per image); kinds left out cost nothing. */
function readPricing(r: YamlReader, node: Node | null, path: string): ModelPricing {
  const pricing: ModelPricing = { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' };
  const fields = r.map(node, path, new Set(PRICE_KINDS));
  for (const kind of PRICE_KINDS) {
    const value = fields?.get(kind);
    if (value === undefined) continue;
    const price = r.decimal(value, fields!.at(kind));
    if (price !== undefined) pricing[kind] = price;
  }
  return pricing;
}

function readEntry(
  r: YamlReader,
  fields: Fields,
  id: string,
  base: ModelEntry | undefined,
  endpoints: EndpointConfig[],
): ModelEntry | undefined {
  const node = (key: string) => fields.get(key);
  const at = (key: string) => fields.at(key);
  const opt = <T>(key: string, read: (n: Node | null, p: string) => T | undefined): T | undefined => {
    const n = node(key);
    return n === undefined ? undefined : read(n, at(key));
  };
  const modalities = (n: Node | null, p: string) => {
    const list = r.stringList(n, p);
    if (list && list.length === 0) r.report(n, p, 'must list at least one value');
    return list;
  };
  const oneOf = (allowed: readonly string[]) => (n: Node | null, p: string) =>
    r.stringList(n, p, (s) => (allowed.includes(s) ? undefined : `${JSON.stringify(s)} is not one of ${allowed.join(', ')}`));

  const endpointContext = endpoints.map((e) => e.context_length ?? 0).reduce((a, b) => Math.max(a, b), 0);
  const context_length = opt('context_length', (n, p) => r.integer(n, p, 1)) ?? base?.context_length ?? (endpointContext || undefined);
  if (context_length === undefined && !fields.has('context_length')) {
    r.report(
      fields.node,
      at('context_length'),
      'is required (the shipped catalogue does not know this model and no endpoint sets context_length)',
    );
  }
  const fileMax = opt('max_output_length', (n, p) => r.integer(n, p, 1));
  const max_output_length = fileMax ?? Math.min(base?.max_output_length ?? Infinity, context_length ?? Infinity);
  if (fileMax !== undefined && context_length !== undefined && fileMax > context_length) {
    r.report(node('max_output_length') ?? null, at('max_output_length'), `${fileMax} exceeds context_length ${context_length}`);
  }
  const deprecation_date = opt('deprecation_date', (n, p) => {
    const s = r.string(n, p);
    if (s !== undefined && !isRealDate(s)) r.report(n, p, `${JSON.stringify(s)} is not a real date in YYYY-MM-DD form`);
    return s;
  });
  const entry: ModelEntry = {
    id,
    name: opt('name', (n, p) => r.string(n, p)) ?? base?.name ?? id,
    created: opt('created', (n, p) => r.integer(n, p, 0)) ?? base?.created ?? 0,
    input_modalities: opt('input_modalities', modalities) ?? [...(base?.input_modalities ?? ['text'])],
    output_modalities: opt('output_modalities', modalities) ?? [...(base?.output_modalities ?? ['text'])],
    context_length: context_length ?? 0,
    max_output_length: Number.isFinite(max_output_length) ? max_output_length : 0,
    pricing: endpoints[0]?.pricing ?? { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' },
    supported_sampling_parameters: (opt('supported_sampling_parameters', oneOf(SAMPLING_PARAMETERS)) ?? [
      ...(base?.supported_sampling_parameters ?? DEFAULT_SAMPLING),
    ]) as ModelEntry['supported_sampling_parameters'],
    supported_features: (opt('supported_features', oneOf(SUPPORTED_FEATURES)) ?? [
      ...(base?.supported_features ?? []),
    ]) as ModelEntry['supported_features'],
    datacenters: datacentersOf(endpoints, base),
  };
  const deprecation = deprecation_date ?? base?.deprecation_date;
  if (deprecation !== undefined) entry.deprecation_date = deprecation;
  return entry;
}

/** The endpoints' datacenters in file order when any lists some, else the catalogue's. */
function datacentersOf(endpoints: EndpointConfig[], base: ModelEntry | undefined): ModelEntry['datacenters'] {
  const codes = [...new Set(endpoints.flatMap((e) => e.datacenters))];
  if (codes.length > 0) return codes.map((country_code) => ({ country_code }));
  return (base?.datacenters ?? []).map((d) => ({ country_code: d.country_code }));
}

// Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip.
function isRealDate(s: string): boolean {
  const match = ISO_DATE.exec(s);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
