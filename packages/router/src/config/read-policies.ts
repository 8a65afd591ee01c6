import type { Node } from 'yaml';
import type { LimitsConfig, RouterConfig, RoutingPolicy } from '../types.ts';
import { DEFAULT_ROUTING } from './defaults.ts';
import type { YamlReader } from './yaml-reader.ts';

/** Each routing figure with the smallest value it may take. */
const ROUTING_MIN: Readonly<Record<Exclude<keyof RoutingPolicy, 'always_include_usage'>, number>> = {
  retries: 0,
  backoff_ms: 0,
  max_backoff_ms: 0,
  max_retry_after_ms: 0,
  allowed_fails: 0,
  window_ms: 1,
  cooldown_ms: 0,
};
const ROUTING_KEYS: ReadonlySet<string> = new Set([...Object.keys(ROUTING_MIN), 'always_include_usage']);
const LIMIT_KEYS: ReadonlySet<string> = new Set(['requests_per_min', 'tokens_per_min', 'budget_usd_per_day', 'budget_usd_per_month']);
const PROJECT_ID = /^[^/\s]+\/[^/\s]+$/;

export function readRouting(r: YamlReader, node: Node | null | undefined, path: string): RoutingPolicy {
  const routing: RoutingPolicy = { ...DEFAULT_ROUTING };
  if (node === undefined) return routing;
  const fields = r.map(node, path, ROUTING_KEYS);
  if (!fields) return routing;
  for (const [key, min] of Object.entries(ROUTING_MIN) as [keyof typeof ROUTING_MIN, number][]) {
    const value = fields.get(key);
    if (value === undefined) continue;
    const n = r.integer(value, fields.at(key), min);
    if (n !== undefined) routing[key] = n;
  }
  const usage = fields.get('always_include_usage');
  if (usage !== undefined) routing.always_include_usage = r.boolean(usage, fields.at('always_include_usage')) ?? false;
  if (routing.max_backoff_ms < routing.backoff_ms) {
    r.report(
      fields.get('max_backoff_ms') ?? fields.node,
      fields.at('max_backoff_ms'),
      `${routing.max_backoff_ms} is less than backoff_ms ${routing.backoff_ms}`,
    );
  }
  return routing;
}

export function readLimits(r: YamlReader, node: Node | null | undefined, path: string): RouterConfig['limits'] {
  const limits: RouterConfig['limits'] = { per_key: {}, per_project: {} };
  if (node === undefined) return limits;
  const fields = r.map(node, path, new Set(['per_key', 'per_project']));
  for (const scope of ['per_key', 'per_project'] as const) {
    const value = fields?.get(scope);
    if (value !== undefined) limits[scope] = readLimitSet(r, value, fields!.at(scope));
  }
  return limits;
}

function readLimitSet(r: YamlReader, node: Node | null, path: string): LimitsConfig {
  const out: LimitsConfig = {};
  const fields = r.map(node, path, LIMIT_KEYS);
  if (!fields) return out;
  for (const key of ['requests_per_min', 'tokens_per_min'] as const) {
    const value = fields.get(key);
    const n = value === undefined ? undefined : r.integer(value, fields.at(key), 1);
    if (n !== undefined) out[key] = n;
  }
  for (const key of ['budget_usd_per_day', 'budget_usd_per_month'] as const) {
    const value = fields.get(key);
    const usd = value === undefined ? undefined : r.decimal(value, fields.at(key));
    if (usd !== undefined) out[key] = usd;
  }
  return out;
}

export function readProjects(r: YamlReader, node: Node | null | undefined, path: string): RouterConfig['projects'] {
  const projects: RouterConfig['projects'] = {};
  if (node === undefined) return projects;
  const fields = r.map(node, path);
  for (const [id, entry] of fields?.entries ?? []) {
    const at = fields!.at(id);
    if (!PROJECT_ID.test(id)) {
      r.report(entry.key, at, `${JSON.stringify(id)} is not a project id of the form entity/project`);
      continue;
    }
    const settings = r.map(entry.value, at, new Set(['record_content']));
    const value = settings?.get('record_content');
    if (settings && value === undefined) r.report(entry.value, settings.at('record_content'), 'is required');
    const record = value === undefined ? undefined : r.boolean(value, settings!.at('record_content'));
    if (record !== undefined) projects[id] = { record_content: record };
  }
  return projects;
}
