import { barLayout } from './model.ts';

const WIDTH = 900;
const HEIGHT = 200;
const LEFT = 52;
const BOTTOM = 28;
const TOP = 10;
const MAX_LABELS = 12;

/** A small hand-drawn bar chart: enough for usage at a glance, without a chart library in the bundle. */
export function BarChart({ points, label, format }: { points: ReadonlyArray<{ label: string; value: number }>; label: string; format: (value: number) => string }) {
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const { bars, ticks } = barLayout(points, plotWidth, plotHeight);
  const every = Math.max(1, Math.ceil(bars.length / MAX_LABELS));
  return (
    // On a phone the chart keeps a readable size and its frame scrolls sideways (manage.css).
    <div className="bar-chart-frame">
      <svg className="bar-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} preserveAspectRatio="xMidYMid meet">
        <g transform={`translate(${LEFT} ${TOP})`}>
          {ticks.map((tick) => {
            const y = plotHeight - (tick / ticks[ticks.length - 1]!) * plotHeight;
            return (
              <g key={tick}>
                <line className="bar-chart-grid" x1={0} x2={plotWidth} y1={y} y2={y} />
                <text className="bar-chart-tick" x={-8} y={y} dy="0.32em" textAnchor="end">
                  {format(tick)}
                </text>
              </g>
            );
          })}
          {bars.map((bar, index) => (
            <g key={`${bar.label}-${index}`}>
              <rect className="bar-chart-bar" x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, bar.value > 0 ? 1.5 : 0)} rx={Math.min(4, bar.width / 4)}>
                <title>{`${bar.label}: ${format(bar.value)}`}</title>
              </rect>
              {/* Counted from the last bar, so the newest (today, on a daily chart) always has its label. */}
              {(bars.length - 1 - index) % every === 0 && (
                <text className="bar-chart-label" x={bar.x + bar.width / 2} y={plotHeight + 18} textAnchor="middle">
                  {bar.label.length > 10 ? `${bar.label.slice(0, 9)}…` : bar.label}
                </text>
              )}
            </g>
          ))}
        </g>
      </svg>
    </div>
  );
}
