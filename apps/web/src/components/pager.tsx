// Previous / Next for a list paged by offset (the page in the URL, 0-based); what to say between
// the buttons is the page's own.
import type { ReactNode } from 'react';

export function Pager({
  page,
  hasNext,
  onPage,
  children,
  label = 'Pages',
}: {
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  children: ReactNode;
  /** The navigation's name, when a list has two pagers (above and below). */
  label?: string;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>{children}</span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
