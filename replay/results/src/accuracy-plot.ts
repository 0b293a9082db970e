/**
 * One group of the accuracy summary (accuracy.ts: a metric under a protocol) drawn as standalone
 * SVG documents, without dependencies: a scatter plot of the emulated median against Chromium's per
 * cell, and the APE of each cell by condition. Each cell is exactly one <circle>; legends and bars use other shapes. The same summary
 * always gives the same bytes.
 */
import { ACCURACY_METRIC_NOUNS, median, type AccuracyCell, type AccuracyGroup } from "./accuracy.js";
import { escapeXml, niceCeiling, SVG_FONT, svgDocument, svgNumber as n, svgText } from "./analysis/svg-parts.js";

const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
/** Beyond this many points, site names next to them would cover each other: hovering shows them instead. */
const MAX_POINT_LABELS = 30;

/** Emulated against Chromium median, log axes, with y = x and its ±10% band. */
export function accuracyScatterSvg(summary: AccuracyGroup): string {
  const noun = ACCURACY_METRIC_NOUNS[summary.metric];
  const size = 420;
  const m = { left: 80, top: 64, right: 200, bottom: 64 };
  const width = m.left + size + m.right;
  const height = m.top + size + m.bottom;
  const values = summary.cells.flatMap((c) => [c.chromium.medianMs!, c.emulated.medianMs!]);
  const lo = values.length > 0 ? 10 ** Math.floor(Math.log10(Math.min(...values) * 0.9)) : 100;
  const hi = values.length > 0 ? 10 ** Math.ceil(Math.log10(Math.max(...values) * 1.1)) : 10_000;
  const t = (v: number) => (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
  const x = (v: number) => m.left + t(v) * size;
  const y = (v: number) => m.top + size - t(v) * size;
  const colour = colours(summary.cells);
  const out: string[] = [];
  out.push(`<clipPath id="plot"><rect x="${m.left}" y="${m.top}" width="${size}" height="${size}"/></clipPath>`);
  for (const v of logTicks(lo, hi)) {
    out.push(`<line x1="${n(x(v))}" y1="${m.top}" x2="${n(x(v))}" y2="${m.top + size}" stroke="#eee"/>`, `<line x1="${m.left}" y1="${n(y(v))}" x2="${m.left + size}" y2="${n(y(v))}" stroke="#eee"/>`);
    out.push(svgText(x(v), m.top + size + 16, formatMs(v), "middle", 10), svgText(m.left - 6, y(v) + 3, formatMs(v), "end", 10));
  }
  const band = [
    [lo, lo * 0.9],
    [hi, hi * 0.9],
    [hi, hi * 1.1],
    [lo, lo * 1.1],
  ].map(([a, b]) => `${n(x(a!))},${n(y(b!))}`);
  out.push(`<polygon points="${band.join(" ")}" fill="#999" fill-opacity="0.2" clip-path="url(#plot)"/>`);
  out.push(`<line x1="${n(x(lo))}" y1="${n(y(lo))}" x2="${n(x(hi))}" y2="${n(y(hi))}" stroke="#555" stroke-dasharray="4 3"/>`);
  out.push(`<rect x="${m.left}" y="${m.top}" width="${size}" height="${size}" fill="none" stroke="#333"/>`);
  for (const c of summary.cells) {
    const cx = x(c.chromium.medianMs!);
    const cy = y(c.emulated.medianMs!);
    out.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="4" fill="${colour(c.condition)}" stroke="#fff" stroke-width="0.5"><title>${escapeXml(describe(c))}</title></circle>`);
    if (summary.cells.length <= MAX_POINT_LABELS) out.push(svgText(cx + 6, cy - 6, c.site, "start", 9));
  }
  out.push(svgText(m.left + size / 2, height - 18, `Chromium median ${noun} (log scale)`, "middle", 12));
  out.push(`<text transform="translate(18 ${m.top + size / 2}) rotate(-90)" text-anchor="middle" font-size="12" ${SVG_FONT}>Emulated median ${noun} (log scale)</text>`);
  const legend: [string, string][] = [...new Set(summary.cells.map((c) => c.condition))].sort().map((k) => [k, colour(k)]);
  out.push(...legendItems(m.left + size + 20, m.top, [...legend, ["y = x", "#555"], ["±10% of Chromium", "#ccc"]]));
  return svgDocument(width, height, `Emulated vs Chromium median ${noun} per cell (${summary.protocol})`, headline(summary), out);
}

/** Each cell's APE, grouped by condition: a bar at the condition's median, a dot per site. */
export function apeByConditionSvg(summary: AccuracyGroup): string {
  const conditions = [...new Set(summary.cells.map((c) => c.condition))].sort();
  const band = 80;
  const m = { left: 70, top: 64, right: 30, bottom: 110 };
  const plotW = Math.max(1, conditions.length) * band;
  const plotH = 320;
  const width = Math.max(480, m.left + plotW + m.right);
  const height = m.top + plotH + m.bottom;
  const top = niceCeiling(Math.max(10, ...summary.cells.map((c) => c.apePercent)));
  const y = (ape: number) => m.top + plotH - (ape / top) * plotH;
  const colour = colours(summary.cells);
  const out: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const v = (top * i) / 5;
    out.push(`<line x1="${m.left}" y1="${n(y(v))}" x2="${m.left + plotW}" y2="${n(y(v))}" stroke="#eee"/>`, svgText(m.left - 6, y(v) + 3, `${round(v)}%`, "end", 10));
  }
  conditions.forEach((condition, i) => {
    const centre = m.left + (i + 0.5) * band;
    const cells = summary.cells.filter((c) => c.condition === condition);
    const mid = median(cells.map((c) => c.apePercent));
    out.push(`<rect x="${n(centre - band * 0.3)}" y="${n(y(mid))}" width="${n(band * 0.6)}" height="${n(m.top + plotH - y(mid))}" fill="${colour(condition)}" fill-opacity="0.25"><title>${escapeXml(`${condition}: median APE ${round(mid)}% over ${cells.length} sites`)}</title></rect>`);
    const step = Math.min(8, (band * 0.5) / cells.length);
    cells.forEach((c, j) => {
      const cx = centre + (j - (cells.length - 1) / 2) * step;
      out.push(`<circle cx="${n(cx)}" cy="${n(y(c.apePercent))}" r="3.5" fill="${colour(condition)}"><title>${escapeXml(describe(c))}</title></circle>`);
    });
    out.push(`<text transform="translate(${n(centre)} ${m.top + plotH + 14}) rotate(-30)" text-anchor="end" font-size="10" ${SVG_FONT}>${escapeXml(condition)}</text>`);
  });
  out.push(`<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  out.push(`<text transform="translate(18 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="12" ${SVG_FONT}>APE of the emulated median</text>`);
  return svgDocument(width, height, `APE of the ${ACCURACY_METRIC_NOUNS[summary.metric]} by condition, ${summary.protocol} (bar: median over sites; dot: one site)`, headline(summary), out);
}

function headline(s: AccuracyGroup): string {
  const o = s.overall;
  const ape = o.medianApePercent === null ? "median APE n/a" : `median APE ${round(o.medianApePercent)}%`;
  const rho = o.spearman === null ? "Spearman ρ n/a" : `Spearman ρ ${o.spearman.toFixed(2)}`;
  const floor = o.chromiumSpread.medianPercent === null ? "" : `, Chromium's own spread ${round(o.chromiumSpread.medianPercent)}%`;
  const missing = s.missing.length > 0 ? `, ${s.missing.length} cells without values from both clients` : "";
  return `${o.cells} cells, ${ape}, ${rho}${floor}${missing}`;
}

function describe(c: AccuracyCell): string {
  return `${c.site} / ${c.condition}: Chromium ${round(c.chromium.medianMs!)} ms (${c.chromium.measured} runs), emulated ${round(c.emulated.medianMs!)} ms (${c.emulated.measured} runs), APE ${round(c.apePercent)}%${c.chromiumSpreadPercent === null ? "" : `, Chromium spread ${round(c.chromiumSpreadPercent)}%`}`;
}

function legendItems(left: number, top: number, items: [string, string][]): string[] {
  return items.flatMap(([label, fill], i) => [`<rect x="${left}" y="${top + i * 18}" width="10" height="10" fill="${fill}"/>`, svgText(left + 16, top + i * 18 + 9, label, "start", 11)]);
}

/** A colour per condition, by the condition's place in sorted order. */
function colours(cells: AccuracyCell[]): (condition: string) => string {
  const order = [...new Set(cells.map((c) => c.condition))].sort();
  return (condition) => PALETTE[order.indexOf(condition) % PALETTE.length]!;
}

/** 1, 2 and 5 times each power of ten from lo to hi. */
function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.round(Math.log10(lo)); 10 ** e <= hi; e++) for (const f of [1, 2, 5]) if (f * 10 ** e <= hi) ticks.push(f * 10 ** e);
  return ticks;
}

function formatMs(v: number): string {
  return v >= 1000 ? `${v / 1000} s` : `${v} ms`;
}

function round(v: number): string {
  return String(Math.round(v * 10) / 10);
}
