// The colour scheme: the system's by default, or the one chosen in the header, kept in this
// browser (localStorage) and applied as data-theme on <html> (styles.css picks light-dark() by it).
export type Theme = 'system' | 'light' | 'dark';

const KEY = 'weft.theme';

export function readTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

/** Applies a theme; 'system' leaves nothing stored, so a browser that never chose keeps no state. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') {
    delete root.dataset.theme;
    localStorage.removeItem(KEY);
  } else {
    root.dataset.theme = theme;
    localStorage.setItem(KEY, theme);
  }
}
