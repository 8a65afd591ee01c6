import type { Catalogue } from '@weft/core';
import { isMap, LineCounter, parseDocument } from 'yaml';
import type { ProviderConfig, RouterConfig, RouterModelConfig } from '../types.ts';
import { readLimits, readProjects, readRouting } from './read-policies.ts';
import { readModel } from './read-model.ts';
import { readProvider } from './read-provider.ts';
import { RouterConfigError } from './router-config-error.ts';
import { YamlReader } from './yaml-reader.ts';

const TOP_KEYS: ReadonlySet<string> = new Set(['providers', 'models', 'routing', 'limits', 'projects']);

/**
 * Parses and validates a router file (YAML). `source` names the file in messages; `shipped` is
 * the catalogue that model entries inherit from. Throws one RouterConfigError listing every
 * problem as `file:line:col: path: message`, so a bad file stops the server at start (or leaves
 * a reload unapplied) instead of routing half a configuration.
 */
export function parseRouterConfig(text: string, source: string, shipped: Catalogue): RouterConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  const syntax = [...doc.errors, ...doc.warnings].map((e) => {
    const { line, col } = lines.linePos(e.pos[0]);
    return `${source}:${Math.max(line, 1)}:${col}: YAML: ${e.message.split('\n')[0]}`;
  });
  if (syntax.length > 0) throw new RouterConfigError(source, syntax);

  const r = new YamlReader(source, doc, lines);
  const root = r.resolve(doc.contents);
  if (root === null) throw new RouterConfigError(source, [`${source}:1:1: (root): the file is empty (expected providers: and models:)`]);
  const top = r.map(root, '', TOP_KEYS);
  if (!top) throw new RouterConfigError(source, r.problems);

  const providers = new Map<string, ProviderConfig>();
  const providersNode = top.get('providers');
  if (providersNode === undefined) r.report(root, 'providers', 'is required');
  else {
    const fields = r.map(providersNode, 'providers');
    if (fields && fields.entries.size === 0) r.report(providersNode, 'providers', 'must declare at least one provider');
    for (const [id, entry] of fields?.entries ?? []) {
      const provider = readProvider(r, id, entry.value, fields!.at(id));
      // Declared even when invalid, so its endpoints are not also reported as naming an unknown provider.
      providers.set(
        id,
        provider ?? { id, base_url: '', headers: {}, timeouts: { connect_ms: 0, first_byte_ms: 0, idle_ms: 0, total_ms: 0 } },
      );
    }
  }

  const models: RouterModelConfig[] = [];
  const modelsNode = top.get('models');
  if (modelsNode === undefined) r.report(root, 'models', 'is required');
  else {
    const items = r.seq(modelsNode, 'models');
    if (items && items.length === 0) r.report(modelsNode, 'models', 'must list at least one model');
    const firstIndex = new Map<string, number>();
    items?.forEach((item, i) => {
      const model = readModel(r, item, `models[${i}]`, providers, shipped);
      // Duplicates are checked on the raw id so they are caught even when an entry has other problems.
      const id = isMap(item) ? item.get('id') : undefined;
      if (typeof id === 'string') {
        const first = firstIndex.get(id);
        if (first !== undefined) r.report(item, `models[${i}].id`, `duplicate id ${JSON.stringify(id)} (first used by models[${first}])`);
        else firstIndex.set(id, i);
      }
      if (model) models.push(model);
    });
  }

  const config: RouterConfig = {
    source,
    providers: [...providers.values()],
    models,
    routing: readRouting(r, top.get('routing'), 'routing'),
    limits: readLimits(r, top.get('limits'), 'limits'),
    projects: readProjects(r, top.get('projects'), 'projects'),
  };
  if (r.count > 0) throw new RouterConfigError(source, r.problems);
  return config;
}
