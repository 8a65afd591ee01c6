import { describe, expect, it } from 'vitest';
import { shortcutOf, type KeyPress } from './review-shortcuts.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('review shortcuts', () => {
  it('act outside text fields', () => {
    expect(shortcutOf(press('4'), 'other')).toEqual({ action: 'digit', key: '4' });
    expect(shortcutOf(press('0'), 'choice')).toEqual({ action: 'digit', key: '0' });
    expect(shortcutOf(press('Enter'), 'choice')).toEqual({ action: 'submit' });
    expect(shortcutOf(press('s'), 'other')).toEqual({ action: 'skip' });
    expect(shortcutOf(press('j'), 'other')).toEqual({ action: 'next' });
    expect(shortcutOf(press('ArrowRight'), 'other')).toEqual({ action: 'next' });
    expect(shortcutOf(press('k'), 'button')).toEqual({ action: 'previous' });
    expect(shortcutOf(press('ArrowLeft'), 'other')).toEqual({ action: 'previous' });
    expect(shortcutOf(press('?'), 'other')).toEqual({ action: 'help' });
    expect(shortcutOf(press('Escape'), 'other')).toEqual({ action: 'escape' });
    expect(shortcutOf(press('Backspace'), 'choice')).toEqual({ action: 'clear' });
  });

  it('never fire while typing, but for Ctrl/Cmd+Enter and Escape', () => {
    for (const key of ['4', 's', 'j', 'k', '?', 'Enter', 'ArrowLeft', 'ArrowRight', 'Backspace'])
      expect(shortcutOf(press(key), 'text')).toBeUndefined();
    expect(shortcutOf(press('Enter', { ctrlKey: true }), 'text')).toEqual({ action: 'submit' });
    expect(shortcutOf(press('Enter', { metaKey: true }), 'text')).toEqual({ action: 'submit' });
    expect(shortcutOf(press('Escape'), 'text')).toEqual({ action: 'leave' });
  });

  it('leave the browser its own keys: arrows in a radio group, Enter on a button, modified keys', () => {
    expect(shortcutOf(press('ArrowRight'), 'choice')).toBeUndefined();
    expect(shortcutOf(press('ArrowLeft'), 'choice')).toBeUndefined();
    expect(shortcutOf(press('Enter'), 'button')).toBeUndefined();
    expect(shortcutOf(press('s', { ctrlKey: true }), 'other')).toBeUndefined();
    expect(shortcutOf(press('1', { altKey: true }), 'other')).toBeUndefined();
    expect(shortcutOf(press('Enter', { ctrlKey: true, altKey: true }), 'other')).toBeUndefined();
    expect(shortcutOf(press('x'), 'other')).toBeUndefined();
  });
});
