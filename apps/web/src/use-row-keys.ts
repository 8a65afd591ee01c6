// Lists operable from the keyboard (issue 33): in any list table (`table.grid`), with the focus on
// a row's link or button, ArrowDown and ArrowUp move it to the same column's link in the next or
// previous row; Enter then opens it as a click would.
import { useEffect } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input[type="checkbox"]';

/** The element to focus after `key` from `active`, or null when the key is not ours here. */
export function rowKeyTarget(active: Element | null, key: string): HTMLElement | null {
  const step = key === 'ArrowDown' ? 1 : key === 'ArrowUp' ? -1 : 0;
  if (step === 0 || !(active instanceof HTMLElement) || !active.matches(FOCUSABLE)) return null;
  const row = active.closest('table.grid > tbody > tr');
  const cell = active.closest('td, th');
  if (!row || !cell) return null;
  const column = [...row.children].indexOf(cell);
  let next = step > 0 ? row.nextElementSibling : row.previousElementSibling;
  while (next) {
    const target = next.children[column]?.querySelector<HTMLElement>(FOCUSABLE) ?? next.querySelector<HTMLElement>(FOCUSABLE);
    if (target) return target;
    next = step > 0 ? next.nextElementSibling : next.previousElementSibling;
  }
  return null;
}

export function useRowKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const target = rowKeyTarget(document.activeElement, e.key);
      if (!target) return;
      e.preventDefault();
      target.focus();
      target.scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
