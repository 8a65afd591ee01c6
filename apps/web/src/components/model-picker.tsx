// The router model to run. A model prefilled from a trace that the router does not serve stays
// selectable (marked), so the router's own answer says why it cannot run it.
import type { RouterModel } from '@weft/types';

interface Props {
  models: RouterModel[];
  value: string;
  onChange: (model: string) => void;
  problem?: string | undefined;
}

export function ModelPicker({ models, value, onChange, problem }: Props) {
  const known = value === '' || models.some((m) => m.id === value);
  return (
    <label>
      Model
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="" disabled>
          Pick a model…
        </option>
        {!known && <option value={value}>{value} (not a router model)</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} ({m.id})
          </option>
        ))}
      </select>
      {problem && <span className="problem">{problem}</span>}
    </label>
  );
}
