// The annotator workspace's keyboard: what a key press means where it happened. Shortcuts never
// act while the reviewer types in a text field, except Ctrl/Cmd+Enter (submit) and Escape (leave
// the field); arrows on a radio group stay the browser's (they move between its options).
export type Shortcut =
  { action: 'submit' | 'skip' | 'next' | 'previous' | 'help' | 'leave' | 'escape' | 'clear' } | { action: 'digit'; key: string };

/** Where the key was pressed: a field one types in, a choice (radio, checkbox, select), a button or link, or elsewhere. */
export type KeyTarget = 'text' | 'choice' | 'button' | 'other';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const TEXT_INPUTS = new Set([
  'text',
  'number',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'date',
  'datetime-local',
  'time',
  'month',
  'week',
]);

/** What kind of target an element is, for `shortcutOf`. */
export function keyTargetOf(el: Element | null): KeyTarget {
  if (!el) return 'other';
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || (el as HTMLElement).isContentEditable) return 'text';
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    if (TEXT_INPUTS.has(type)) return 'text';
    if (type === 'button' || type === 'submit' || type === 'reset') return 'button';
    return 'choice';
  }
  if (tag === 'SELECT') return 'choice';
  if (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY') return 'button';
  return 'other';
}

export function shortcutOf(press: KeyPress, target: KeyTarget): Shortcut | undefined {
  const { key } = press;
  const mod = press.ctrlKey || press.metaKey;
  if (key === 'Enter' && mod && !press.altKey) return { action: 'submit' };
  if (key === 'Escape') return { action: target === 'text' ? 'leave' : 'escape' };
  if (mod || press.altKey || target === 'text') return undefined;
  if (key === 'Enter') return target === 'button' ? undefined : { action: 'submit' };
  if (/^[0-9]$/.test(key)) return { action: 'digit', key };
  if (key === 'Backspace' || key === 'Delete') return { action: 'clear' };
  if (key === 's' || key === 'S') return { action: 'skip' };
  if (key === 'j') return { action: 'next' };
  if (key === 'k') return { action: 'previous' };
  if (key === '?') return { action: 'help' };
  if (key === 'ArrowRight' || key === 'ArrowLeft') {
    if (target === 'choice') return undefined;
    return { action: key === 'ArrowRight' ? 'next' : 'previous' };
  }
  return undefined;
}

/** The list the `?` key shows. */
export const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['1 … 9, 0', 'Pick a value of the current field (the keys are shown beside each option)'],
  ['Tab / Shift+Tab', 'Next / previous field (arrows move within a field’s options)'],
  ['Enter', 'Submit the item (Ctrl/⌘+Enter inside a text box)'],
  ['Backspace', 'Clear the current field'],
  ['s', 'Skip the item'],
  ['j or →', 'Next item'],
  ['k or ←', 'Previous item'],
  ['Esc', 'Leave a text box (then the shortcuts work again)'],
  ['?', 'Show or hide this list'],
];
