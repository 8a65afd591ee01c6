import { useMemo } from 'react';
import { jsonDiff } from '../json-diff.ts';

const show = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

export function DiffView({
  before,
  after,
  beforeLabel,
  afterLabel,
}: {
  before: unknown;
  after: unknown;
  beforeLabel: string;
  afterLabel: string;
}) {
  const { entries, more } = useMemo(() => jsonDiff(before, after), [before, after]);
  if (entries.length === 0)
    return (
      <p className="muted">
        {beforeLabel} and {afterLabel} hold the same value.
      </p>
    );
  return (
    <table className="grid diff" aria-label={`Differences from ${beforeLabel} to ${afterLabel}`}>
      <thead>
        <tr>
          <th>Path</th>
          <th>{beforeLabel}</th>
          <th>{afterLabel}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.path} className={`diff-${e.kind}`}>
            <td className="mono">{e.path}</td>
            <td className="mono">{e.kind === 'added' ? <span className="muted">(absent)</span> : show(e.before)}</td>
            <td className="mono">{e.kind === 'removed' ? <span className="muted">(absent)</span> : show(e.after)}</td>
          </tr>
        ))}
        {more > 0 && (
          <tr>
            <td colSpan={3} className="muted">
              and {more} more differences
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
