import type { DailyActivity } from "@/lib/staff-home/summarize-daily-activity";
import type { MessageKey } from "@/lib/i18n/messages";
import { fillMessage } from "@/lib/i18n/fill-message";

// Hand-written SVG, not a chart library: the maintained ones either draw in the browser (Chart.js,
// Recharts, ECharts' default) or bring a large headless runtime for two small bar/line charts
// (Vega's toSVG). Thirty bars and two lines are a few dozen lines of markup, rendered on the server
// with no client JavaScript, and every series is told apart by pattern or line style, not colour.

type Series = { key: keyof Omit<DailyActivity, "day">; label: MessageKey };
type Props = { days: DailyActivity[]; t: (key: MessageKey) => string };

const W = 600;
const H = 170;
const PAD = { left: 34, right: 8, top: 10, bottom: 24 };
const plotW = W - PAD.left - PAD.right;
const plotH = H - PAD.top - PAD.bottom;

const signatureSeries: Series[] = [
  { key: "stampSignatures", label: "home.stampSignatures" },
  { key: "signerSignatures", label: "home.signerSignatures" },
];
const processSeries: Series[] = [
  { key: "processesCreated", label: "home.created" },
  { key: "processesCompleted", label: "home.completed" },
];

const total = (days: DailyActivity[], key: Series["key"]) => days.reduce((sum, d) => sum + d[key], 0);
const niceMax = (n: number) => (n <= 4 ? 4 : Math.ceil(n / 4) * 4);
const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

function Axes({ days, max, t }: { days: DailyActivity[]; max: number; t: Props["t"] }) {
  const step = plotW / days.length;
  return (
    <g className="chart-axes">
      <line x1={PAD.left} y1={PAD.top + plotH} x2={W - PAD.right} y2={PAD.top + plotH} />
      <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + plotH} />
      <text x={PAD.left - 4} y={PAD.top + 4} textAnchor="end">{max}</text>
      <text x={PAD.left - 4} y={PAD.top + plotH} textAnchor="end">0</text>
      <text x={PAD.left + 2} y={PAD.top - 1} className="chart-note">{fillMessage(t("home.chartMax"), { n: max })}</text>
      {days.map((d, i) => (i % 7 === days.length % 7 ? <text key={d.day} x={PAD.left + step * (i + 0.5)} y={H - 6} textAnchor="middle">{shortDay(d.day)}</text> : null))}
    </g>
  );
}

/** Stamp and process-signer signatures stacked per day: solid for one, hatched for the other. */
function SignatureBars({ days, t }: Props) {
  const max = niceMax(Math.max(...days.map((d) => d.stampSignatures + d.signerSignatures)));
  const step = plotW / days.length;
  const y = (n: number) => (n / max) * plotH;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart" role="img" aria-labelledby="chart-signatures-title chart-signatures-desc">
      <title id="chart-signatures-title">{t("home.signaturesChart")}</title>
      <desc id="chart-signatures-desc">{summary(days, signatureSeries, t)}</desc>
      <defs>
        <pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="5" height="5" className="chart-hatch-bg" />
          <line x1="0" y1="0" x2="0" y2="5" className="chart-hatch-line" />
        </pattern>
      </defs>
      <Axes days={days} max={max} t={t} />
      {days.map((d, i) => {
        const x = PAD.left + step * i + step * 0.15;
        const base = PAD.top + plotH;
        return (
          <g key={d.day}>
            <rect x={x} y={base - y(d.stampSignatures)} width={step * 0.7} height={y(d.stampSignatures)} className="chart-solid" />
            <rect x={x} y={base - y(d.stampSignatures + d.signerSignatures)} width={step * 0.7} height={y(d.signerSignatures)} fill="url(#hatch)" className="chart-hatched" />
          </g>
        );
      })}
    </svg>
  );
}

/** Created and completed processes per day: a solid line with circles, a dashed line with squares. */
function ProcessLines({ days, t }: Props) {
  const max = niceMax(Math.max(...days.map((d) => Math.max(d.processesCreated, d.processesCompleted))));
  const step = plotW / days.length;
  const point = (i: number, n: number) => [PAD.left + step * (i + 0.5), PAD.top + plotH - (n / max) * plotH] as const;
  const path = (key: Series["key"]) => days.map((d, i) => point(i, d[key]).join(",")).join(" ");
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="chart" role="img" aria-labelledby="chart-processes-title chart-processes-desc">
      <title id="chart-processes-title">{t("home.processesChart")}</title>
      <desc id="chart-processes-desc">{summary(days, processSeries, t)}</desc>
      <Axes days={days} max={max} t={t} />
      <polyline points={path("processesCreated")} className="chart-line" />
      <polyline points={path("processesCompleted")} className="chart-line chart-line-dashed" />
      {days.map((d, i) => {
        const [cx, cy] = point(i, d.processesCreated);
        const [sx, sy] = point(i, d.processesCompleted);
        return (
          <g key={d.day}>
            <circle cx={cx} cy={cy} r={2.5} className="chart-marker" />
            <rect x={sx - 2.5} y={sy - 2.5} width={5} height={5} className="chart-marker-open" />
          </g>
        );
      })}
    </svg>
  );
}

function summary(days: DailyActivity[], series: Series[], t: Props["t"]) {
  return fillMessage(t("home.chartSummary"), { a: t(series[0].label), x: total(days, series[0].key), b: t(series[1].label), y: total(days, series[1].key) });
}

/** The legend names each series with the same mark the chart draws, so no colour is needed to read it. */
function Legend({ items }: { items: { mark: string; label: string }[] }) {
  return (
    <ul className="chart-legend">
      {items.map((item) => (
        <li key={item.label}><svg width="22" height="12" aria-hidden="true" className="chart-legend-mark">{legendMark(item.mark)}</svg>{item.label}</li>
      ))}
    </ul>
  );
}

function legendMark(mark: string) {
  if (mark === "solid") return <rect width="22" height="12" className="chart-solid" />;
  if (mark === "hatched") return <rect width="22" height="12" fill="url(#hatch)" className="chart-hatched" />;
  if (mark === "line") return <><line x1="0" y1="6" x2="22" y2="6" className="chart-line" /><circle cx="11" cy="6" r="2.5" className="chart-marker" /></>;
  return <><line x1="0" y1="6" x2="22" y2="6" className="chart-line chart-line-dashed" /><rect x="8.5" y="3.5" width="5" height="5" className="chart-marker-open" /></>;
}

/** The last 30 days on the staff home: two charts and, for screen readers, the figures as a table. */
export function ActivityChart({ days, t }: Props) {
  const all = [...signatureSeries, ...processSeries];
  return (
    <section className="card stack" aria-labelledby="activity-title">
      <h2 id="activity-title">{t("home.activity")}</h2>
      <div aria-hidden="true">
        <h3>{t("home.signaturesChart")}</h3>
        <Legend items={[{ mark: "solid", label: t("home.stampSignatures") }, { mark: "hatched", label: t("home.signerSignatures") }]} />
      </div>
      <SignatureBars days={days} t={t} />
      <div aria-hidden="true">
        <h3>{t("home.processesChart")}</h3>
        <Legend items={[{ mark: "line", label: t("home.created") }, { mark: "dashed", label: t("home.completed") }]} />
      </div>
      <ProcessLines days={days} t={t} />
      {/* hidden by its wrapper: a table is never narrower than its content, so on itself the class would widen the page */}
      <div className="visually-hidden">
      <table data-testid="activity-table">
        <caption>{t("home.dataTable")}</caption>
        <thead>
          <tr><th scope="col">{t("home.day")}</th>{all.map((s) => <th key={s.key} scope="col">{t(s.label)}</th>)}</tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day} data-day={d.day}>
              <th scope="row">{d.day}</th>
              {all.map((s) => <td key={s.key} data-series={s.key}>{d[s.key]}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </section>
  );
}
