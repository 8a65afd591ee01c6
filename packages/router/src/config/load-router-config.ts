import { readFile } from 'node:fs/promises';
import type { Catalogue } from '@weft/core';
import type { RouterConfig } from '../types.ts';
import { parseRouterConfig } from './parse-router-config.ts';
import { RouterConfigError } from './router-config-error.ts';

/** Reads and validates a router file; a missing or unreadable file is a RouterConfigError too. */
export async function loadRouterConfig(path: string, shipped: Catalogue): Promise<RouterConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new RouterConfigError(path, [`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
  return parseRouterConfig(text, path, shipped);
}
