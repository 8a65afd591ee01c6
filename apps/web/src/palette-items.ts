// What Cmd-K finds (Weave's and Phoenix's global search): projects, and in the current project its
// ops, datasets and other objects by name, and a call by its id. Names that start with the text
// come first; each group is capped so the list stays one screen.
import type { CallSchema } from '@weft/types';
import { opLabel } from './call-facts.ts';

export interface PaletteItem {
  group: 'Calls' | 'Projects' | 'Ops' | 'Datasets' | 'Objects';
  label: string;
  href: string;
}

export interface PaletteSources {
  projects: readonly string[];
  /** The current project's latest objects (objs/query, metadata only). */
  objects: readonly { object_id: string; kind?: string; base_object_class?: string | null }[];
  projectId: string | undefined;
  /** The call whose id is the text, when the server knows one. */
  call: Pick<CallSchema, 'id' | 'op_name' | 'display_name'> | undefined;
}

const PER_GROUP = 8;

/** A call id as Weave writes them (UUIDv7, or any UUID). */
export const looksLikeCallId = (text: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text.trim());

function matching<T>(items: readonly T[], name: (t: T) => string, text: string): T[] {
  const q = text.trim().toLowerCase();
  const hits = items.filter((t) => name(t).toLowerCase().includes(q));
  const starts = (t: T) => (name(t).toLowerCase().startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b) || name(a).localeCompare(name(b))).slice(0, PER_GROUP);
}

export function paletteItems(text: string, { projects, objects, projectId, call }: PaletteSources): PaletteItem[] {
  const items: PaletteItem[] = [];
  if (call && projectId) items.push({ group: 'Calls', label: `${opLabel(call)} · ${call.id}`, href: `/${projectId}/r/call/${call.id}` });
  for (const p of matching(projects, (p) => p, text)) items.push({ group: 'Projects', label: p, href: `/${p}/traces` });
  if (projectId) {
    const href = (id: string) => `/${projectId}/objects/${encodeURIComponent(id)}`;
    const of = (group: PaletteItem['group'], test: (o: PaletteSources['objects'][number]) => boolean) =>
      matching(objects.filter(test), (o) => o.object_id, text).map((o) => ({ group, label: o.object_id, href: href(o.object_id) }));
    items.push(...of('Ops', (o) => o.kind === 'op'));
    items.push(...of('Datasets', (o) => o.kind !== 'op' && o.base_object_class === 'Dataset'));
    items.push(...of('Objects', (o) => o.kind !== 'op' && o.base_object_class !== 'Dataset'));
  }
  return items;
}
