/**
 * Small server-rendered SVG charts for the admin overview: no chart library, no client JavaScript. Each
 * chart scales to its container (viewBox, width 100%), names every bar in a <title> (a tooltip with a
 * mouse), summarises itself for screen readers (aria-label), and carries its numbers in a visually hidden
 * table, so nothing is only in the picture.
 */

export interface ChartPoint {
  /** The day, YYYY-MM-DD. */
  date: string;
  value: number;
}

const WIDTH = 360;
const HEIGHT = 200;
const PLOT = { left: 40, right: 8, top: 12, bottom: 28 };

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (1 for nothing), so the axis reads in round numbers. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const shortDate = (date: string) => {
  const [, month, day] = date.split("-");
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${Number(day)} ${months[Number(month) - 1] ?? ""}`;
};

/** Which days get a label under the axis: the first, the last and a few evenly between (never crowded). */
function labelledIndexes(count: number): Set<number> {
  if (count <= 1) return new Set([0]);
  const wanted = Math.min(count, 5);
  return new Set(Array.from({ length: wanted }, (_, index) => Math.round((index * (count - 1)) / (wanted - 1))));
}

export function BarChart({
  id,
  title,
  points,
  format = (value) => String(value),
  unit,
  integer = false,
}: {
  id: string;
  title: string;
  points: ChartPoint[];
  format?: (value: number) => string;
  unit?: string;
  /** Counts: the axis shows whole numbers only. */
  integer?: boolean;
}) {
  const max = Math.max(0, ...points.map((point) => point.value));
  const top = niceCeiling(max);
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / Math.max(points.length, 1);
  const barWidth = Math.max(1, slot * 0.72);
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  const ticks = integer && !Number.isInteger(top / 2) ? [0, top] : [0, top / 2, top];
  const labelled = labelledIndexes(points.length);
  const first = points[0]?.date;
  const last = points.at(-1)?.date;
  const busiest = points.reduce<ChartPoint | undefined>((best, point) => (!best || point.value > best.value ? point : best), undefined);
  const summary =
    points.length === 0
      ? `${title}: no days.`
      : `${title} from ${first} to ${last}: ${format(total)}${unit ? ` ${unit}` : ""} in total over ${points.length} days; highest ${format(busiest!.value)} on ${busiest!.date}.`;

  return (
    <figure className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 shadow-sm" aria-labelledby={`${id}-caption`} data-chart={id}>
      <figcaption id={`${id}-caption`} className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-ink">{title}</span>
        <span className="text-sm text-muted">
          Total {format(total)}
          {unit ? ` ${unit}` : ""}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={summary} className="h-auto w-full overflow-visible" preserveAspectRatio="xMidYMid meet">
        <g className="text-slate-300" aria-hidden="true">
          {ticks.map((tick) => (
            <line key={tick} x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(tick)} y2={y(tick)} stroke="currentColor" strokeWidth={tick === 0 ? 1.5 : 0.75} strokeDasharray={tick === 0 ? undefined : "3 3"} />
          ))}
        </g>
        <g className="text-muted" aria-hidden="true" fontSize="12">
          {ticks.map((tick) => (
            <text key={tick} x={PLOT.left - 6} y={y(tick)} dy="0.35em" textAnchor="end" fill="currentColor">
              {format(tick)}
            </text>
          ))}
          {points.map((point, index) =>
            labelled.has(index) ? (
              <text key={point.date} x={PLOT.left + slot * index + slot / 2} y={HEIGHT - 8} textAnchor={index === 0 && points.length > 1 ? "start" : index === points.length - 1 && points.length > 1 ? "end" : "middle"} fill="currentColor">
                {shortDate(point.date)}
              </text>
            ) : null,
          )}
        </g>
        <g className="text-brand-700">
          {points.map((point, index) => {
            const height = Math.max(point.value > 0 ? 1.5 : 0, PLOT.top + plotHeight - y(point.value));
            const x = PLOT.left + slot * index + (slot - barWidth) / 2;
            return (
              <g key={point.date} data-date={point.date} data-value={point.value}>
                {/* The full-height hit area lets a pointer find the day even when its bar is tiny. */}
                <rect x={PLOT.left + slot * index} y={PLOT.top} width={slot} height={plotHeight} fill="transparent">
                  <title>{`${point.date}: ${format(point.value)}${unit ? ` ${unit}` : ""}`}</title>
                </rect>
                <rect x={x} y={PLOT.top + plotHeight - height} width={barWidth} height={height} rx={Math.min(2, barWidth / 3)} fill="currentColor">
                  <title>{`${point.date}: ${format(point.value)}${unit ? ` ${unit}` : ""}`}</title>
                </rect>
              </g>
            );
          })}
        </g>
      </svg>
      <table className="sr-only">
        <caption>{title} per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{unit ? `${title} (${unit})` : title}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.date}>
              <th scope="row">{point.date}</th>
              <td>{format(point.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
