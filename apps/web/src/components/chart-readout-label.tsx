// A LineChart's hover readout: the x under the guide and each series' value there, beside the
// guide (on its left past the middle, so it stays inside the chart). A live region, so that a
// screen reader hears the values as ← and → move the guide.

export interface ReadoutValue {
  name: string;
  color: string;
  y: number;
  band?: [number, number];
}

export function ChartReadout({
  heading,
  values,
  format,
  left,
  width,
}: {
  /** Null while nothing is pointed at: the region stays, empty and hidden. */
  heading: string | null;
  values: ReadoutValue[];
  format: (y: number) => string;
  left: number;
  width: number;
}) {
  const side = left > width / 2 ? { right: width - left + 10 } : { left: left + 10 };
  return (
    <div className="chart-readout" role="status" style={heading === null ? undefined : side}>
      {heading !== null && (
        <>
          <strong>{heading}</strong>
          {values.map((v) => (
            <span key={v.name} className="readout-row">
              <span className="swatch" style={{ background: v.color }} /> {v.name}{' '}
              <span className="mono">
                {format(v.y)}
                {v.band && ` ± ${format((v.band[1] - v.band[0]) / 2)}`}
              </span>
            </span>
          ))}
        </>
      )}
    </div>
  );
}
