/**
 * Line plots of a few named series over a shared x axis, as step lines: the CDFs of completion
 * times and the count of active messages over time of seed 000's Figs 4.11-4.12.
 */
import { niceCeiling, svgDocument, svgNumber as n, svgText } from "./svg-parts.js";

export interface LineSeries {
  name: string;
  /** (x, y) in x order; drawn as steps: y holds until the next point's x. */
  points: [number, number][];
}

export interface LinePlot {
  title: string;
  subtitle: string;
  xLabel: string;
  yLabel: string;
  series: LineSeries[];
  /** The y axis' top; the data's largest y, rounded up, when absent. */
  yMax?: number;
  /** The x axis' left end (default 0), for values that go below 0. */
  xMin?: number;
}

const W = 780;
const H = 400;
const M = { left: 64, top: 64, right: 290, bottom: 52 };
/** Distinct on white and for most colour vision, in series order. */
const COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];

export function linePlotSvg(plot: LinePlot): string {
  const all = plot.series.flatMap((s) => s.points);
  const xMin = plot.xMin ?? 0;
  const xMax = xMin + niceCeiling(Math.max(1e-9, ...all.map(([x]) => x - xMin)));
  const yMax = plot.yMax ?? niceCeiling(Math.max(1e-9, ...all.map(([, y]) => y)));
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (v: number) => M.left + ((v - xMin) / (xMax - xMin)) * pw;
  const y = (v: number) => M.top + ph - (v / yMax) * ph;
  const out: string[] = [
    `<path d="M${n(M.left)},${n(M.top)}V${n(M.top + ph)}H${n(M.left + pw)}" fill="none" stroke="#333"/>`,
    svgText(M.left + pw / 2, H - 14, plot.xLabel, "middle", 12),
    svgText(16, M.top + ph / 2, plot.yLabel, "middle", 12, ` transform="rotate(-90 16 ${n(M.top + ph / 2)})"`),
  ];
  for (let i = 0; i <= 4; i++) {
    const xTick = xMin + ((xMax - xMin) * i) / 4;
    out.push(svgText(x(xTick), M.top + ph + 16, String(+xTick.toPrecision(3)), "middle", 10));
    out.push(svgText(M.left - 6, y((yMax * i) / 4) + 4, String(+((yMax * i) / 4).toPrecision(3)), "end", 10));
  }
  plot.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    if (s.points.length > 0) {
      const [x0, y0] = s.points[0]!;
      const d = [`M${n(x(x0))},${n(y(y0))}`, ...s.points.slice(1).map(([px, py]) => `H${n(x(px))}V${n(y(py))}`)].join("");
      out.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.8"><title>${s.name}</title></path>`);
    }
    const ly = M.top + 14 + i * 20;
    out.push(`<path d="M${n(M.left + pw + 16)},${n(ly - 4)}h22" stroke="${colour}" stroke-width="3"/>`, svgText(M.left + pw + 44, ly, s.name, "start", 11));
  });
  return svgDocument(W, H, plot.title, plot.subtitle, out);
}

/** An empirical CDF: (value, share of values at or below it), from 0, or from the least value if it is below 0. */
export function cdfPoints(values: number[]): [number, number][] {
  const sorted = [...values].sort((a, b) => a - b);
  return [[Math.min(0, sorted[0] ?? 0), 0], ...sorted.map((v, i): [number, number] => [v, (i + 1) / sorted.length])];
}

/** How many of the intervals [start, end) are open at each change, from 0. */
export function activeCountPoints(intervals: [number, number][]): [number, number][] {
  const changes = intervals.flatMap(([s, e]): [number, number][] => [[s, 1], [e, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [[0, 0]];
  let open = 0;
  for (const [at, d] of changes) {
    open += d;
    if (out[out.length - 1]![0] === at) out[out.length - 1]![1] = open;
    else out.push([at, open]);
  }
  return out;
}
