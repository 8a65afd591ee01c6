// A call's usage and cost as a table per model, and any value (its summary, its attributes) as a
// table of fields by path: readable at a glance, where the JSON viewer shows "15 keys".
import type { CallSchema } from '@weft/types';
import { formatCost } from '../call-facts.ts';
import { flatFields, usageByModel } from '../call-usage.ts';

const count = (n: number) => n.toLocaleString('en-US');

export function UsageTable({ call }: { call: CallSchema }) {
  const rows = usageByModel(call);
  if (rows.length === 0) return null;
  const priced = rows.some((r) => r.cost !== undefined);
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return (
    <table className="grid compact" aria-label="Usage and cost by model">
      <thead>
        <tr>
          <th>Model</th>
          <th className="num">Requests</th>
          <th className="num">Input tokens</th>
          <th className="num">Output tokens</th>
          <th className="num">Total tokens</th>
          <th className="num">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.model}>
            <td className="mono">{r.model}</td>
            <td className="num">{count(r.requests)}</td>
            <td className="num">{count(r.inputTokens)}</td>
            <td className="num">{count(r.outputTokens)}</td>
            <td className="num">{count(r.totalTokens)}</td>
            <td className="num">{formatCost(r.cost)}</td>
          </tr>
        ))}
      </tbody>
      {rows.length > 1 && (
        <tfoot>
          <tr>
            <th>All models</th>
            <td className="num">{count(sum((r) => r.requests))}</td>
            <td className="num">{count(sum((r) => r.inputTokens))}</td>
            <td className="num">{count(sum((r) => r.outputTokens))}</td>
            <td className="num">{count(sum((r) => r.totalTokens))}</td>
            <td className="num">{priced ? formatCost(sum((r) => r.cost ?? 0)) : '—'}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** `value`'s scalars by dot path; `skip` leaves out paths shown elsewhere (usage and costs). */
export function FieldsTable({ label, value, skip }: { label: string; value: unknown; skip?: (path: string) => boolean }) {
  const fields = flatFields(value, skip);
  if (fields.length === 0) return <p className="muted">None.</p>;
  return (
    <table className="grid compact fields" aria-label={label}>
      <tbody>
        {fields.map((f) => (
          <tr key={f.path}>
            <th scope="row" className="mono">
              {f.path || '(value)'}
            </th>
            <td>{f.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
