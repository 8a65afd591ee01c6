// The rows of the traces list: a checkbox each (the selection sent to review), the call's facts,
// its reactions and notes, and one column per annotation field with the newest score. Headers of
// sortable columns sort on the server (a score by Weave's feedback field).
import type { CallSchema } from '@weft/types';
import { Link } from 'react-router';
import { costOf, formatCost, formatDuration, latencyOf, opLabel, statusOf, tokensOf } from '../call-facts.ts';
import { feedbackOf, latestAnnotations, NOTE_TYPE, reactionsOf, valueText } from '../feedback-facts.ts';
import { annotationField } from '../traces-query.ts';
import { StatusBadge } from './status-badge.tsx';
import { TimeAgo } from './time-ago.tsx';

export interface Sorting {
  field: string;
  direction: 'asc' | 'desc';
}

interface Props {
  projectPath: string;
  calls: CallSchema[];
  scoreNames: string[];
  sorting: Sorting;
  onSort: (field: string) => void;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
}

export function TracesTable({ projectPath, calls, scoreNames, sorting, onSort, selected, onSelect }: Props) {
  const allOnPage = calls.length > 0 && calls.every((c) => selected.has(c.id));
  const header = (field: string, label: string) => (
    <th key={field} aria-sort={sorting.field === field ? (sorting.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="link" onClick={() => onSort(field)}>
        {label} {sorting.field === field ? (sorting.direction === 'asc' ? '▲' : '▼') : ''}
      </button>
    </th>
  );
  return (
    <table className="grid" aria-label="Traces">
      <thead>
        <tr>
          <th className="check">
            <input
              type="checkbox"
              aria-label="Select every trace on this page"
              checked={allOnPage}
              onChange={(e) =>
                onSelect(
                  calls.map((c) => c.id),
                  e.target.checked,
                )
              }
            />
          </th>
          {header('op_name', 'Name')}
          {header('started_at', 'Started')}
          <th>Status</th>
          <th>Latency</th>
          <th>Tokens</th>
          <th>Cost</th>
          <th>Feedback</th>
          {scoreNames.map((name) => header(annotationField(name), name))}
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => {
          const feedback = feedbackOf(call);
          const scores = latestAnnotations(feedback);
          const notes = feedback.filter((f) => f.feedback_type === NOTE_TYPE).length;
          return (
            <tr key={call.id} aria-selected={selected.has(call.id)}>
              <td className="check">
                <input
                  type="checkbox"
                  aria-label={`Select ${opLabel(call)} ${call.id}`}
                  checked={selected.has(call.id)}
                  onChange={(e) => onSelect([call.id], e.target.checked)}
                />
              </td>
              <td>
                <Link to={`${projectPath}/r/call/${call.id}`}>{opLabel(call)}</Link>
              </td>
              <td>
                <TimeAgo iso={call.started_at} />
              </td>
              <td>
                <StatusBadge status={statusOf(call)} />
              </td>
              <td className="num">{formatDuration(latencyOf(call))}</td>
              <td className="num">{tokensOf(call) ? tokensOf(call).toLocaleString() : '—'}</td>
              <td className="num">{formatCost(costOf(call))}</td>
              <td>
                {reactionsOf(feedback, undefined).map((r) => (
                  <span key={r.emoji} className="reaction-count">
                    {r.emoji}
                    {r.count > 1 ? r.count : ''}
                  </span>
                ))}
                {notes > 0 && (
                  <span className="reaction-count" title={`${notes} note${notes === 1 ? '' : 's'}`}>
                    📝{notes > 1 ? notes : ''}
                  </span>
                )}
              </td>
              {scoreNames.map((name) => (
                <td key={name} className="num" data-score={name}>
                  {scores.has(name) ? valueText(scores.get(name)) : ''}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
