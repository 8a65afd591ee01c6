// A small SVG line chart: one line per series over steps, an optional band (mean ± std dev), a
// point per value (each a step a user can pick). Hand-written on purpose: a few lines of SVG
// instead of a charting library's ~100 kB on the first load (bench scenario 10).

export interface Series {
  name: string;
  points: Array<{ x: number; y: number; band?: [number, number] }>;
}

const W = 560;
const H = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };
const COLORS = ['#2f5bd3', '#c4320a', '#1a7f4b', '#6941c6', '#b54708'];

function ticks(min: number, max: number, n = 4): number[] {
  if (min === max) return [min];
  const step = (max - min) / n;
  return Array.from({ length: n + 1 }, (_, i) => min + i * step);
}

export function LineChart({ title, series, onPick }: { title: string; series: Series[]; onPick?: (x: number, series: string) => void }) {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return null;
  const xs = all.map((p) => p.x);
  const ys = all.flatMap((p) => (p.band ? [p.y, ...p.band] : [p.y]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  const sx = (x: number) => PAD.left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (y1 === y0 ? 0.5 : (y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title} by step`}>
        {ticks(y0, y1).map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} className="gridline" />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" className="axis">
              {fmt(t)}
            </text>
          </g>
        ))}
        {ticks(x0, x1, Math.min(5, Math.max(1, x1 - x0))).map((t) => (
          <text key={t} x={sx(t)} y={H - 8} textAnchor="middle" className="axis">
            {Math.round(t)}
          </text>
        ))}
        {series.map((s, i) => {
          const color = COLORS[i % COLORS.length]!;
          const pts = [...s.points].sort((a, b) => a.x - b.x);
          const banded = pts.filter((p) => p.band);
          const band =
            banded.length > 1
              ? [
                  ...banded.map((p) => `${sx(p.x)},${sy(p.band![1])}`),
                  ...[...banded].reverse().map((p) => `${sx(p.x)},${sy(p.band![0])}`),
                ].join(' ')
              : undefined;
          return (
            <g key={s.name} className="lines">
              {band && <polygon points={band} fill={color} opacity={0.12} />}
              <polyline points={pts.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ')} fill="none" stroke={color} strokeWidth={2} />
            </g>
          );
        })}
        {/* Points above every line, so each stays clickable. */}
        {series.map((s, i) => (
          <g key={s.name} data-series={s.name}>
            {s.points.map((p) => (
              <circle
                key={p.x}
                cx={sx(p.x)}
                cy={sy(p.y)}
                r={4}
                fill={COLORS[i % COLORS.length]}
                className="point"
                data-step={p.x}
                onClick={onPick ? () => onPick(p.x, s.name) : undefined}
              >
                <title>{`${s.name}, step ${p.x}: ${fmt(p.y)}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <div className="legend">
        {series.map((s, i) => (
          <span key={s.name}>
            <span className="swatch" style={{ background: COLORS[i % COLORS.length] }} /> {s.name}
          </span>
        ))}
      </div>
    </figure>
  );
}
