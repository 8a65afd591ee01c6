import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createCatalogue, type Catalogue } from './create-catalogue.ts';
import { checkKnownKeys, describeValue, isRecord, type Report } from './field-checks.ts';
import type { ModelEntry } from './model-entry.ts';
import { validateModel } from './validate-model.ts';

/** The catalogue shipped with this package. */
export const DEFAULT_CATALOGUE_URL = new URL('../../catalogue/models.json', import.meta.url);

/** Thrown once per bad catalogue, listing every problem so one fix-up pass suffices. */
export class CatalogueError extends Error {
  readonly source: string;
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(
      `Invalid model catalogue ${source} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
    );
    this.name = 'CatalogueError';
    this.source = source;
    this.problems = problems;
  }
}

/**
 * Parses and validates catalogue JSON (`{"models":[...]}`). `source` names
 * the file in error messages. Throws a single CatalogueError listing every
 * problem with its path, e.g.
 * `models[3].pricing.prompt: "2.2e-7" is not a plain decimal string`,
 * so a bad catalogue stops the server at startup instead of serving junk.
 *
 * Product choice: models whose deprecation_date has passed STAY in the
 * list. Clients (and agents pinned to an old id) need to see the date to
 * understand why the model stopped working; dropping the entry would turn
 * that into an unexplained "unknown model". Nothing here compares the
 * date with today, which also keeps the body and ETag stable over time.
 */
export function parseCatalogue(text: string, source: string): Catalogue {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CatalogueError(source, [`not valid JSON: ${(error as Error).message}`]);
  }

  const problems: string[] = [];
  const report: Report = (path, message) => problems.push(`${path}: ${message}`);
  if (!isRecord(json)) throw new CatalogueError(source, [`expected {"models": [...]}, got ${describeValue(json)}`]);
  if (!Array.isArray(json.models)) {
    const got = json.models === undefined ? 'is required' : `expected an array, got ${describeValue(json.models)}`;
    throw new CatalogueError(source, [`models: ${got}`]);
  }
  checkKnownKeys(json, new Set(['models']), '(root)', report);

  const entries: ModelEntry[] = [];
  const firstIndexOfId = new Map<string, number>();
  json.models.forEach((raw: unknown, i) => {
    const path = `models[${i}]`;
    const entry = validateModel(raw, path, report);
    // Check duplicates on the raw id so they are caught even when the
    // record has other problems.
    const id = isRecord(raw) ? raw.id : undefined;
    if (typeof id === 'string') {
      const first = firstIndexOfId.get(id);
      if (first !== undefined) report(`${path}.id`, `duplicate id ${describeValue(id)} (first used by models[${first}])`);
      else firstIndexOfId.set(id, i);
    }
    if (entry) entries.push(entry);
  });

  if (problems.length > 0) throw new CatalogueError(source, problems);
  return createCatalogue(entries);
}

/** Reads and validates a catalogue file (default: the shipped catalogue/models.json). */
export async function loadCatalogue(path: string | URL = DEFAULT_CATALOGUE_URL): Promise<Catalogue> {
  const source = path instanceof URL ? fileURLToPath(path) : path;
  const text = await readFile(path, 'utf8');
  return parseCatalogue(text, source);
}
