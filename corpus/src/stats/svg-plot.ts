import type { CdfPoint } from "./summary.js";

export interface CdfPlot {
  title: string;
  xLabel: string;
  series: { name: string; points: CdfPoint[] }[];
  /** Drawn as vertical dashed lines, named in the legend. */
  reference?: { name: string; value: number }[];
  /** Decades on the x axis; values <= 0 are drawn at its left end. */
  logX?: boolean;
}

const W = 780;
const H = 440;
const M = { left: 64, right: 240, top: 44, bottom: 58 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;
// Tableau 10: told apart by most readers, including the common colour-blindnesses.
const COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
const REFERENCE_COLOUR = "#444";

/** A standalone SVG of empirical CDFs drawn as steps, y from 0 to 1, with axes, ticks and a legend. */
export function cdfSvg(plot: CdfPlot): string {
  const refs = plot.reference ?? [];
  const xs = [...plot.series.flatMap((s) => s.points.map((p) => p.x)), ...refs.map((r) => r.value)];
  const axis = plot.logX ? logAxis(xs) : linearAxis(xs);
  const X = (v: number): number => M.left + PLOT_W * inset(axis.scale(v));
  const Y = (p: number): number => M.top + PLOT_H * inset(1 - p);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left + PLOT_W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${esc(plot.title)}</text>`,
    ...[0, 0.2, 0.4, 0.6, 0.8, 1].map((p) => tick(M.left, Y(p), "y", p.toFixed(1))),
    ...axis.ticks.map((v) => tick(X(v), M.top + PLOT_H, "x", label(v))),
    `<rect x="${M.left}" y="${M.top}" width="${PLOT_W}" height="${PLOT_H}" fill="none" stroke="#000"/>`,
    `<text x="${M.left + PLOT_W / 2}" y="${H - 14}" text-anchor="middle">${esc(plot.xLabel)}${plot.logX ? " (log scale)" : ""}</text>`,
    `<text transform="translate(18 ${M.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">cumulative fraction</text>`,
    ...plot.series.map((s, i) => stepPath(s.name, s.points, colour(i), X, Y)),
    ...refs.map((r) => `<line class="reference" x1="${n(X(r.value))}" y1="${M.top}" x2="${n(X(r.value))}" y2="${M.top + PLOT_H}" stroke="${REFERENCE_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4"><title>${esc(r.name)}</title></line>`),
    legend([
      ...plot.series.map((s, i) => ({ name: s.points.length ? s.name : `${s.name} (no data)`, colour: colour(i), dashed: false })),
      ...refs.map((r) => ({ name: r.name, colour: REFERENCE_COLOUR, dashed: true })),
    ]),
    "</svg>",
  ];
  return parts.join("\n") + "\n";
}

/** Keeps the data off the frame, so a line at either end of an axis stays visible. */
function inset(f: number): number {
  return 0.03 + 0.94 * f;
}

interface Axis {
  scale: (v: number) => number;
  ticks: number[];
}

function linearAxis(xs: number[]): Axis {
  const min = Math.min(0, ...xs);
  const top = Math.max(min, ...xs);
  const step = niceStep(top > min ? (top - min) / 5 : 1);
  // Values below 0 (differences) get a tick at or below the smallest, as the largest gets one above.
  const lo = Math.floor(min / step) * step;
  const hi = Math.max(Math.ceil(top / step) * step, lo + step);
  const ticks: number[] = [];
  // Summing steps drifts (0.1 + 0.2); twelve digits drop the drift and keep every real tick.
  for (let v = Math.ceil(lo / step) * step; v <= hi + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { scale: (v) => (v - lo) / (hi - lo), ticks };
}

function logAxis(xs: number[]): Axis {
  const positive = xs.filter((x) => x > 0);
  const lo = Math.floor(Math.log10(positive.length ? Math.min(...positive) : 1));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(positive.length ? Math.max(...positive) : 10)));
  const ticks = Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
  return { scale: (v) => (v > 0 ? Math.max(0, (Math.log10(v) - lo) / (hi - lo)) : 0), ticks };
}

/** 1, 2 or 5 times a power of ten, the smallest such at least raw. */
function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}

function tick(x: number, y: number, axis: "x" | "y", text: string): string {
  return axis === "x"
    ? `<line x1="${n(x)}" y1="${M.top}" x2="${n(x)}" y2="${n(y + 5)}" stroke="#ddd"/><text x="${n(x)}" y="${n(y + 18)}" text-anchor="middle">${text}</text>`
    : `<line x1="${n(x - 5)}" y1="${n(y)}" x2="${M.left + PLOT_W}" y2="${n(y)}" stroke="#ddd"/><text x="${n(x - 8)}" y="${n(y + 4)}" text-anchor="end">${text}</text>`;
}

/** An empirical CDF is flat between values and jumps at each: from 0 at the left edge to 1 at the right. */
function stepPath(name: string, points: CdfPoint[], colour: string, X: (v: number) => number, Y: (p: number) => number): string {
  if (points.length === 0) return "";
  const d = [`M${M.left},${n(Y(0))}`, ...points.map((pt) => `H${n(X(pt.x))}V${n(Y(pt.p))}`), `H${M.left + PLOT_W}`].join("");
  return `<path class="series" data-name="${esc(name)}" d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>`;
}

function legend(rows: { name: string; colour: string; dashed: boolean }[]): string {
  const x = M.left + PLOT_W + 16;
  return rows
    .map((r, i) => {
      const y = M.top + 10 + i * 20;
      const dash = r.dashed ? ` stroke-dasharray="6 4"` : "";
      return `<g class="legend"><line x1="${x}" y1="${y}" x2="${x + 24}" y2="${y}" stroke="${r.colour}" stroke-width="2"${dash}/><text x="${x + 30}" y="${y + 4}">${esc(r.name)}</text></g>`;
    })
    .join("\n");
}

function colour(i: number): string {
  return COLOURS[i % COLOURS.length]!;
}

/** Tick labels to three significant digits: 1.5k, 10M, 0.05. */
function label(v: number): string {
  const units: [number, string][] = [[1e9, "G"], [1e6, "M"], [1e3, "k"]];
  const [div, suffix] = units.find(([d]) => Math.abs(v) >= d) ?? [1, ""];
  return `${Number((v / div).toPrecision(3))}${suffix}`;
}

function n(v: number): string {
  return v.toFixed(1);
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
