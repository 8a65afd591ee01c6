// One row of a table in full, beside the rows: every column's value, long text wrapped whole,
// nested values in the JSON viewer. Read on its own (offset = the row's index, in table order), so
// a link with `?row=N` opens it whatever is scrolled into view. Escape or Close closes it.
import { useEffect, useRef } from 'react';
import { useApi } from '../session.tsx';
import { JsonView } from './json-view.tsx';
import { ErrorView, Loading } from './query-state.tsx';

interface RowDrawerProps {
  projectId: string;
  digest: string;
  index: number;
  onClose: () => void;
}

export function RowDrawer({ projectId, digest, index, onClose }: RowDrawerProps) {
  const { $api } = useApi();
  const row = $api.useQuery(
    'post',
    '/table/query',
    { body: { project_id: projectId, digest, offset: index, limit: 1 } },
    { staleTime: Infinity },
  );
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [index]);
  const found = row.data?.rows[0];
  const val: unknown = found?.val;
  const entries: Array<[string, unknown]> =
    typeof val === 'object' && val !== null && !Array.isArray(val) ? Object.entries(val) : found ? [['(value)', val]] : [];
  return (
    <aside
      className="drawer"
      role="dialog"
      aria-label={`Row ${index}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <header className="row">
        <h2>Row {index}</h2>
        <button type="button" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      {row.isPending ? (
        <Loading what={`row ${index}`} />
      ) : row.error ? (
        <ErrorView error={row.error} />
      ) : !found ? (
        <p className="muted">No row {index} in this table.</p>
      ) : (
        <>
          <p className="muted mono">digest {found.digest}</p>
          <dl className="row-fields">
            {entries.map(([key, value]) => (
              <div key={key}>
                <dt className="mono">{key}</dt>
                <dd>{typeof value === 'string' ? <p className="full-text">{value}</p> : <JsonView value={value} />}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </aside>
  );
}
