// The sampling parameters, each left empty to use the model's default.
import type { DraftParams, ParamName, Problems } from '../playground/playground-draft.ts';

const FIELDS: Array<{ name: ParamName; label: string; hint: string }> = [
  { name: 'temperature', label: 'Temperature', hint: '0–2' },
  { name: 'max_tokens', label: 'Max tokens', hint: 'e.g. 512' },
  { name: 'top_p', label: 'Top p', hint: '0–1' },
  { name: 'seed', label: 'Seed', hint: 'integer' },
];

interface Props {
  params: DraftParams;
  onChange: (params: DraftParams) => void;
  problems: Problems;
}

export function ParamsEditor({ params, onChange, problems }: Props) {
  const set = (name: ParamName, value: string) => onChange({ ...params, [name]: value });
  return (
    <fieldset className="params">
      <legend>Parameters</legend>
      {FIELDS.map((f) => (
        <label key={f.name}>
          {f.label}
          <input inputMode="decimal" placeholder={f.hint} value={params[f.name]} onChange={(e) => set(f.name, e.target.value)} />
          {problems[f.name] && <span className="problem">{problems[f.name]}</span>}
        </label>
      ))}
      <label>
        Stop sequences
        <textarea rows={2} placeholder="one per line" value={params.stop} onChange={(e) => set('stop', e.target.value)} />
        {problems.stop && <span className="problem">{problems.stop}</span>}
      </label>
    </fieldset>
  );
}
