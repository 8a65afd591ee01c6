// The header's colour scheme menu: the system's (the default), light or dark.
import { useState } from 'react';
import { applyTheme, readTheme, type Theme } from '../theme.ts';

export function ThemeMenu() {
  const [theme, setTheme] = useState<Theme>(readTheme);
  return (
    <select
      aria-label="Theme"
      value={theme}
      onChange={(e) => {
        const next = e.target.value as Theme;
        applyTheme(next);
        setTheme(next);
      }}
    >
      <option value="system">System theme</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}
