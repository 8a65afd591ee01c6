// sort_by of /table/query: dot paths into the row, and their direction.
import { invalidRequest } from '@weft/core';
import type * as T from '@weft/types';

export interface TableSortKey {
  /** Path components; 1–9 digit components index arrays (see the dialect helpers). */
  path: string[];
  direction: 'asc' | 'desc';
}

export function parseTableSort(sortBy: readonly T.TableSortItem[] | null | undefined): TableSortKey[] {
  return (sortBy ?? []).map(parseItem);
}

function parseItem(item: T.TableSortItem): TableSortKey {
  const field: unknown = item.field;
  // The rules of Weave's servers: no blank field, no empty or blank component.
  if (typeof field !== 'string' || field.trim() === '') throw invalidRequest('Sort field cannot be empty');
  if (field.startsWith('.') || field.endsWith('.') || field.includes('..')) {
    throw invalidRequest(`Invalid sort field '${field}': field names cannot start/end with dots or contain consecutive dots`);
  }
  const path = field.split('.');
  if (path.some((part) => part.trim() === '')) {
    throw invalidRequest(`Invalid sort field '${field}': field path components cannot be empty`);
  }
  // The seed names it `order`, Weave `direction`; both are accepted, but must not disagree.
  const { order, direction } = item;
  if (order != null && direction != null && order !== direction) {
    throw invalidRequest(`Sort item for '${field}' has order "${order}" but direction "${direction}"`);
  }
  const dir = order ?? direction ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw invalidRequest(`Invalid sort order ${JSON.stringify(dir)}: use "asc" or "desc"`);
  return { path, direction: dir };
}
