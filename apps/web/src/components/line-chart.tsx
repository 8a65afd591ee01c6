// A small SVG line chart: one line per series over steps (or times), an optional band (mean ± std
// dev), a point per value (each a step a user can pick). A null value is a gap: the line breaks
// there. Hand-written on purpose: a few lines of SVG instead of a charting library's ~100 kB on the
// first load (bench scenario 10). Colours are CSS variables (styles.css) so that a dark scheme can
// lighten them.

export interface Series {
  name: string;
  points: Array<{ x: number; y: number | null; band?: [number, number] }>;
}

interface Point {
  x: number;
  y: number;
  band?: [number, number];
}

const W = 560;
const H = 220;
const PAD = { left: 60, right: 12, top: 12, bottom: 28 };
const SERIES_COLORS = 6;

/** The series' colour: `--series-1`…`--series-6`, in turn. */
export const seriesColor = (i: number) => `var(--series-${(i % SERIES_COLORS) + 1})`;

function ticks(min: number, max: number, n = 4): number[] {
  if (min === max) return [min];
  const step = (max - min) / n;
  return Array.from({ length: n + 1 }, (_, i) => min + i * step);
}

/**
 * About `n` intervals at round values (1, 2 or 5 times a power of ten, as d3's ticks choose them)
 * covering [min, max]: the y axis reads 0, 500, 1,000 rather than 0, 588.8, 1,177.6. The axis
 * then spans the first to the last tick.
 */
export function niceTicks(min: number, max: number, n = 4): number[] {
  if (min === max || !Number.isFinite(max - min)) return [min];
  const rough = (max - min) / n;
  const power = 10 ** Math.floor(Math.log10(rough));
  const error = rough / power;
  const step = power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.SQRT2 ? 2 : 1);
  const first = Math.floor(min / step);
  const last = Math.ceil(max / step);
  // Products of integers and the step, rounded to the step's precision so 0.1 × 3 reads 0.3.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toFixed(digits)));
}

/** At most `n` values of `sorted`, evenly spread, the first and the last included. */
function spread(sorted: number[], n: number): number[] {
  if (sorted.length <= n) return sorted;
  return Array.from({ length: n }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (n - 1))]!);
}

/** Runs of consecutive non-null points: a null breaks the line. */
function segments(points: Series['points']): Point[][] {
  const out: Point[][] = [[]];
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    if (p.y === null) out.push([]);
    else out[out.length - 1]!.push(p as Point);
  }
  return out.filter((s) => s.length > 0);
}

const defaultFormat = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());

export interface LineChartProps {
  title: string;
  series: Series[];
  onPick?: (x: number, series: string) => void;
  /** What x is, for the chart's accessible name (`<title> by <xLabel>`). */
  xLabel?: string;
  formatX?: (x: number) => string;
  formatY?: (y: number) => string;
  /** The y axis' labels (default formatY): shorter than a point's exact value. */
  formatTick?: (y: number) => string;
  /** The y axis starts at 0 (counts, costs) rather than at the smallest value. */
  fromZero?: boolean;
}

export function LineChart({
  title,
  series,
  onPick,
  xLabel = 'step',
  formatX = (x) => String(Math.round(x)),
  formatY = defaultFormat,
  formatTick = formatY,
  fromZero = false,
}: LineChartProps) {
  const all = series.flatMap((s) => s.points.filter((p): p is Point => p.y !== null));
  if (all.length === 0) return null;
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = all.flatMap((p) => (p.band ? [p.y, ...p.band] : [p.y]));
  if (fromZero) ys.push(0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yTicks = niceTicks(Math.min(...ys), Math.max(...ys));
  const [y0, y1] = [yTicks[0]!, yTicks[yTicks.length - 1]!];
  const sx = (x: number) => PAD.left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - (y1 === y0 ? 0.5 : (y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  // Steps tick at round numbers; other x (times) at values the series hold (bucket starts), so a
  // label names a real bucket rather than a point between two.
  const xTicks =
    xLabel === 'step'
      ? ticks(x0, x1, Math.min(5, Math.max(1, x1 - x0)))
      : spread(
          [...new Set(xs)].sort((a, b) => a - b),
          4,
        );
  const r = all.length > 40 ? 2.5 : 4;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title} by ${xLabel}`}>
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} className="gridline" />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" className="axis">
              {formatTick(t)}
            </text>
          </g>
        ))}
        {xTicks.map((t, i) => (
          <text
            key={t}
            x={sx(t)}
            y={H - 8}
            textAnchor={xTicks.length > 1 && i === 0 ? 'start' : xTicks.length > 1 && i === xTicks.length - 1 ? 'end' : 'middle'}
            className="axis"
          >
            {formatX(t)}
          </text>
        ))}
        {series.map((s, i) => {
          const color = seriesColor(i);
          const banded = s.points.filter((p): p is Point => p.y !== null && p.band !== undefined).sort((a, b) => a.x - b.x);
          const band =
            banded.length > 1
              ? [
                  ...banded.map((p) => `${sx(p.x)},${sy(p.band![1])}`),
                  ...[...banded].reverse().map((p) => `${sx(p.x)},${sy(p.band![0])}`),
                ].join(' ')
              : undefined;
          return (
            <g key={s.name} className="lines">
              {band && <polygon points={band} style={{ fill: color }} opacity={0.12} />}
              {segments(s.points).map((seg) => (
                <polyline
                  key={seg[0]!.x}
                  points={seg.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ')}
                  fill="none"
                  style={{ stroke: color }}
                  strokeWidth={2}
                />
              ))}
            </g>
          );
        })}
        {/* Points above every line, so each stays clickable. */}
        {series.map((s, i) => (
          <g key={s.name} data-series={s.name}>
            {s.points
              .filter((p): p is Point => p.y !== null)
              .map((p) => (
                <circle
                  key={p.x}
                  cx={sx(p.x)}
                  cy={sy(p.y)}
                  r={r}
                  style={{ fill: seriesColor(i) }}
                  className={onPick ? 'point' : undefined}
                  data-step={p.x}
                  data-value={p.y}
                  onClick={onPick ? () => onPick(p.x, s.name) : undefined}
                >
                  <title>{`${s.name}, ${xLabel === 'step' ? `step ${p.x}` : formatX(p.x)}: ${formatY(p.y)}`}</title>
                </circle>
              ))}
          </g>
        ))}
      </svg>
      <div className="legend">
        {series.map((s, i) => (
          <span key={s.name}>
            <span className="swatch" style={{ background: seriesColor(i) }} /> {s.name}
          </span>
        ))}
      </div>
    </figure>
  );
}
