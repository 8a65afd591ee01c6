// The rows of the traces list: a checkbox each (the selection sent to review), the name and start,
// the columns picked (traces-columns.ts: inputs/output preview, op, status, latency, tokens, cost,
// reactions and notes, user, thread), and one column per annotation field with the newest score.
// Headers of sortable columns sort on the server (latency and status as Weave's derived fields,
// tokens and cost as Weft's, a score by Weave's feedback field).
import type { CallSchema } from '@weft/types';
import { Link } from 'react-router';
import { costOf, formatCost, formatDuration, latencyOf, opLabel, statusOf, tokensOf } from '../call-facts.ts';
import { feedbackOf, latestAnnotations, NOTE_TYPE, reactionsOf, valueText } from '../feedback-facts.ts';
import { preview, SORT_FIELDS, type ColumnId } from '../traces-columns.ts';
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
  columns: ReadonlySet<ColumnId>;
  sorting: Sorting;
  onSort: (field: string) => void;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
}

const opName = (ref: string) => /\/op\/([^:]+)/.exec(ref)?.[1] ?? ref;

export function TracesTable({ projectPath, calls, scoreNames, columns, sorting, onSort, selected, onSelect }: Props) {
  const has = (id: ColumnId) => columns.has(id);
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
          {header(SORT_FIELDS.op, 'Name')}
          {header(SORT_FIELDS.started, 'Started')}
          {has('io') && <th>Inputs</th>}
          {has('io') && <th>Output</th>}
          {has('op') && <th>Op</th>}
          {has('status') && header(SORT_FIELDS.status, 'Status')}
          {has('latency') && header(SORT_FIELDS.latency, 'Latency')}
          {has('tokens') && header(SORT_FIELDS.tokens, 'Tokens')}
          {has('cost') && header(SORT_FIELDS.cost, 'Cost')}
          {has('feedback') && <th>Feedback</th>}
          {has('user') && <th>User</th>}
          {has('thread') && <th>Thread</th>}
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
              {has('io') && (
                <td className="preview" data-column="inputs" title={preview(call.inputs, 2000)}>
                  {preview(call.inputs)}
                </td>
              )}
              {has('io') && (
                <td className="preview" data-column="output" title={preview(call.output, 2000)}>
                  {preview(call.output)}
                </td>
              )}
              {has('op') && <td data-column="op">{opName(call.op_name)}</td>}
              {has('status') && (
                <td>
                  <StatusBadge status={statusOf(call)} />
                </td>
              )}
              {has('latency') && (
                <td className="num" data-column="latency" data-ms={latencyOf(call) ?? ''}>
                  {formatDuration(latencyOf(call))}
                </td>
              )}
              {has('tokens') && (
                <td className="num" data-column="tokens" data-tokens={tokensOf(call)}>
                  {tokensOf(call) ? tokensOf(call).toLocaleString() : '—'}
                </td>
              )}
              {has('cost') && (
                <td className="num" data-column="cost" data-cost={costOf(call) ?? ''}>
                  {formatCost(costOf(call))}
                </td>
              )}
              {has('feedback') && (
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
              )}
              {has('user') && <td data-column="user">{call.svc_username ?? call.svc_user_id ?? ''}</td>}
              {has('thread') && (
                <td data-column="thread">
                  {call.thread_id ? <Link to={`${projectPath}/threads/${encodeURIComponent(call.thread_id)}`}>{call.thread_id}</Link> : ''}
                </td>
              )}
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
