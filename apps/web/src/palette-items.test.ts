import { describe, expect, it } from 'vitest';
import { looksLikeCallId, paletteItems, type PaletteSources } from './palette-items.ts';

const sources: PaletteSources = {
  projects: ['acme/support-bot', 'acme/demo', 'lab/support'],
  objects: [
    { object_id: 'support-questions', kind: 'object', base_object_class: 'Dataset' },
    { object_id: 'answer', kind: 'op' },
    { object_id: 'support_answer', kind: 'op' },
    { object_id: 'helpfulness', kind: 'object', base_object_class: 'Scorer' },
  ],
  projectId: 'acme/demo',
  call: undefined,
};

describe('paletteItems', () => {
  it('finds projects, ops, datasets and objects by part of their name, names starting with the text first', () => {
    expect(paletteItems('support', sources)).toEqual([
      { group: 'Projects', label: 'acme/support-bot', href: '/acme/support-bot/traces' },
      { group: 'Projects', label: 'lab/support', href: '/lab/support/traces' },
      { group: 'Ops', label: 'support_answer', href: '/acme/demo/objects/support_answer' },
      { group: 'Datasets', label: 'support-questions', href: '/acme/demo/objects/support-questions' },
    ]);
    expect(paletteItems('ANSWER', sources).map((i) => i.label)).toEqual(['answer', 'support_answer']);
    expect(paletteItems('help', sources)).toEqual([{ group: 'Objects', label: 'helpfulness', href: '/acme/demo/objects/helpfulness' }]);
  });
  it('offers a call found by its id first, and only projects outside a project', () => {
    const call = { id: '0197331c-0000-7000-8000-000000000006', op_name: 'weave:///acme/demo/op/openai.chat:abc' };
    expect(paletteItems(call.id, { ...sources, call })[0]).toEqual({
      group: 'Calls',
      label: `openai.chat · ${call.id}`,
      href: `/acme/demo/r/call/${call.id}`,
    });
    expect(paletteItems('a', { ...sources, projectId: undefined }).every((i) => i.group === 'Projects')).toBe(true);
  });
  it('caps each group at eight', () => {
    const many = Array.from({ length: 20 }, (_, i) => `acme/p${i}`);
    expect(paletteItems('acme', { ...sources, projects: many, projectId: undefined })).toHaveLength(8);
  });
  it('tells a call id from a name', () => {
    expect(looksLikeCallId(' 0197331c-0000-7000-8000-000000000006 ')).toBe(true);
    expect(looksLikeCallId('support-questions')).toBe(false);
  });
});
