// STAND-IN until helper h-router-record's branch is merged (it replaces this file).
import type { IncomingHttpHeaders } from 'node:http';

export interface ParentContext {
  trace_id: string;
  parent_id: string | undefined;
}

export function parseParent(_headers: IncomingHttpHeaders): ParentContext | undefined {
  return undefined;
}
