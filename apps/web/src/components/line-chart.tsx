// A small SVG line chart: one line per series over steps (or times), an optional band (mean ± std
// dev), a point per value (each a step a user can pick). A null value is a gap: the line breaks
// there. Hand-written on purpose: a few lines of SVG instead of a charting library's ~100 kB on the
// first load (bench scenario 10). Colours are CSS variables (styles.css) so that a dark scheme can
// lighten them. It draws at its rendered width, so the axes' text is the stylesheet's size; moving
// the pointer over it (or ← → once it has focus) shows the nearest x's values (chart-readout.ts).
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { ChartReadout } from './chart-readout-label.tsx';
import { nearest, stepFrom, valuesAt, xsOf, type ChartPoint, type Series } from './chart-readout.ts';
import { niceTicks, segments, spread, ticks } from './chart-ticks.ts';
import { useWidth } from './use-width.ts';

export type { Series } from './chart-readout.ts';

const H = 240;
const SERIES_COLORS = 6;

/** The series' colour: `--series-1`…`--series-6`, in turn. */
export const seriesColor = (i: number) => `var(--series-${(i % SERIES_COLORS) + 1})`;

const defaultFormat = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(3)).toString());
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface LineChartProps {
  title: string;
  series: Series[];
  onPick?: (x: number, series: string) => void;
  /** What x is, for the chart's accessible name (`<title> by <xLabel>`) and the x axis' title. */
  xLabel?: string;
  /** The y axis' title (none by default: the caption names the chart). */
  yLabel?: string;
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
  yLabel,
  formatX = (x) => String(Math.round(x)),
  formatY = defaultFormat,
  formatTick = formatY,
  fromZero = false,
}: LineChartProps) {
  const [W, measure] = useWidth(560);
  const [hover, setHover] = useState<number | null>(null);
  const all = series.flatMap((s) => s.points.filter((p): p is ChartPoint => p.y !== null));
  if (all.length === 0) return null;
  const PAD = { left: yLabel ? 70 : 52, right: 16, top: 12, bottom: 46 };
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const held = xsOf(series);
  const ys = all.flatMap((p) => (p.band ? [p.y, ...p.band] : [p.y]));
  if (fromZero) ys.push(0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yTicks = niceTicks(Math.min(...ys), Math.max(...ys));
  const [y0, y1] = [yTicks[0]!, yTicks[yTicks.length - 1]!];
  const plotW = W - PAD.left - PAD.right;
  const sx = (x: number) => PAD.left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * plotW;
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
  const nameOf = (x: number) => (xLabel === 'step' ? `step ${formatX(x)}` : formatX(x));

  const onMove = (e: MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const px = ((e.clientX - box.left) * W) / (box.width || W);
    setHover(nearest(held, x1 === x0 ? x0 : x0 + ((px - PAD.left) / plotW) * (x1 - x0)));
  };
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    const by = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[e.key];
    if (by !== undefined) {
      e.preventDefault();
      setHover(Number.isFinite(by) ? stepFrom(held, hover, by) : by < 0 ? held[0]! : held[held.length - 1]!);
    } else if (e.key === 'Escape') setHover(null);
    else if (e.key === 'Enter' && onPick && hover !== null) {
      const first = valuesAt(series, hover)[0];
      if (first) onPick(hover, first.name);
    }
  };
  const at = hover === null ? [] : valuesAt(series, hover);

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div className="chart-plot" ref={measure}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={`${title} by ${xLabel}`}
          tabIndex={0}
          onMouseMove={onMove}
          onMouseLeave={() => setHover(null)}
          onKeyDown={onKey}
          onFocus={(e) => {
            if (hover === null && e.currentTarget.matches(':focus-visible')) setHover(held[held.length - 1]!);
          }}
          onBlur={() => setHover(null)}
        >
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
              y={H - PAD.bottom + 18}
              textAnchor={xTicks.length > 1 && i === 0 ? 'start' : xTicks.length > 1 && i === xTicks.length - 1 ? 'end' : 'middle'}
              className="axis"
            >
              {formatX(t)}
            </text>
          ))}
          <text x={PAD.left + plotW / 2} y={H - 6} textAnchor="middle" className="axis-title">
            {capital(xLabel)}
          </text>
          {yLabel && (
            <text
              x={0}
              y={0}
              transform={`translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)`}
              textAnchor="middle"
              className="axis-title"
            >
              {yLabel}
            </text>
          )}
          {series.map((s, i) => {
            const color = seriesColor(i);
            const banded = s.points.filter((p): p is ChartPoint => p.y !== null && p.band !== undefined).sort((a, b) => a.x - b.x);
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
          {hover !== null && (
            <g className="guide" aria-hidden="true">
              <line x1={sx(hover)} x2={sx(hover)} y1={PAD.top} y2={H - PAD.bottom} />
              {at.map((v) => (
                <circle key={v.name} cx={sx(hover)} cy={sy(v.point.y)} r={r + 3} style={{ stroke: seriesColor(v.index) }} />
              ))}
            </g>
          )}
          {/* Points above every line, so each stays clickable. */}
          {series.map((s, i) => (
            <g key={s.name} data-series={s.name}>
              {s.points
                .filter((p): p is ChartPoint => p.y !== null)
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
                    <title>{`${s.name}, ${nameOf(p.x)}: ${formatY(p.y)}`}</title>
                  </circle>
                ))}
            </g>
          ))}
        </svg>
        <ChartReadout
          heading={hover === null ? null : capital(nameOf(hover))}
          values={at.map((v) => ({ name: v.name, color: seriesColor(v.index), y: v.point.y, band: v.point.band }))}
          format={formatY}
          left={hover === null ? 0 : sx(hover)}
          width={W}
        />
      </div>
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
