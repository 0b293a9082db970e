/**
 * A fetch's bar read as DevTools' network waterfall reads it: split into its phases (queued, DNS,
 * connect, TLS, request sent, waiting for the first byte, content download) in DevTools' colours,
 * and its label marked with the resource type's colour. Phases are clipped to the bar, so each of a
 * document's download chunks shows the part of the document's phases that fell in it; where no phase
 * covers the bar (a redirect's earlier hops, a gap between connecting and sending) the bar's own
 * colour shows through.
 */
import type { GraphNode, PhaseSpan, ResourcePhases } from "@pagepath/graph-builder";
import { ms } from "./format.js";

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
type Rows = d3.Selection<d3.BaseType | SVGGElement, { n: GraphNode; y: number }, SVGGElement, unknown>;
type Scale = d3.ScaleLinear<number, number>;

export type PhaseName = keyof ResourcePhases;

/** A run's bar keeps a strip of the run's colour above its phases, so that it still says whose bar it is. */
export const RUN_STRIP = 2;

/** In the order they happen, with DevTools' names and colours (RequestTimingView's). */
export const PHASES: { name: PhaseName; label: string; color: string }[] = [
  { name: "queued", label: "queued (stalled)", color: "#c4c4c4" },
  { name: "dns", label: "DNS", color: "#009688" },
  { name: "connect", label: "connect", color: "#ff9800" },
  { name: "ssl", label: "TLS", color: "#9c27b0" },
  { name: "send", label: "request sent", color: "#90a4ae" },
  { name: "wait", label: "waiting (TTFB)", color: "#00c853" },
  { name: "download", label: "content download", color: "#03a9f4" },
];

/** Resource types as DevTools' type filter groups them, in its Performance panel's colours. */
export const RESOURCE_TYPES: { name: string; color: string }[] = [
  { name: "document", color: "#4285f4" },
  { name: "stylesheet", color: "#a142f4" },
  { name: "script", color: "#f4b400" },
  { name: "image", color: "#0f9d58" },
  { name: "font", color: "#e8710a" },
  { name: "xhr/fetch", color: "#e52592" },
  { name: "other", color: "#9aa0a6" },
];

/** The type group of a fetch's node; null for computations, which have no type stripe. */
export function resourceType(n: GraphNode): string | null {
  if (!n.resource) return null;
  if (n.kind === "download") return "document";
  const t = n.resource.resourceType.toLowerCase();
  if (t === "xhr" || t === "fetch") return "xhr/fetch";
  return RESOURCE_TYPES.some((r) => r.name === t) ? t : "other";
}

const typeColor = (name: string) => RESOURCE_TYPES.find((r) => r.name === name)!.color;

/** Each phase's length in ms, for the hover text; phases the fetch did not have are left out. */
export function phaseDurations(p: ResourcePhases): string[] {
  return PHASES.flatMap(({ name, label }) => {
    const s: PhaseSpan | null = p[name];
    return s ? [`${label}: ${ms(s.end - s.start)}`] : [];
  });
}

/**
 * Draws each row's phases over the bar of one series: `span` is where that bar is, `phases` what
 * the series knows of the row's fetch.
 */
export function drawPhases(
  rows: Rows,
  series: string,
  x: Scale,
  span: (n: GraphNode) => { start: number; end: number } | null,
  phases: (n: GraphNode) => ResourcePhases | null | undefined,
  barTop: (r: { y: number }) => number,
  barHeight: number,
): void {
  rows.each(function (r) {
    const bar = span(r.n);
    const p = phases(r.n);
    if (!bar || !p) return;
    const g = d3.select(this as SVGGElement).append("g").attr("class", "phases").attr("data-run", series);
    for (const { name, label, color } of PHASES) {
      const s = p[name];
      if (!s) continue;
      const from = Math.max(s.start, bar.start);
      const to = Math.min(s.end, bar.end);
      if (x(to) - x(from) < 0.25) continue;
      g.append("rect")
        .attr("class", "phase")
        .attr("data-phase", name)
        .attr("x", x(from))
        .attr("y", barTop(r))
        .attr("width", x(to) - x(from))
        .attr("height", barHeight)
        .attr("fill", color)
        .append("title")
        .text(`${label}: ${ms(s.end - s.start)}`);
    }
  });
}

/** A coloured stripe left of each fetch's label: its resource type. */
export function drawTypeStripes(rows: Rows, rowTop: (r: { y: number }) => number, height: number): void {
  rows
    .filter((r) => resourceType(r.n) !== null)
    .append("rect")
    .attr("class", "type-stripe")
    .attr("data-type", (r) => resourceType(r.n))
    .attr("x", 4)
    .attr("y", (r) => rowTop(r) + 2)
    .attr("width", 5)
    .attr("height", height)
    .attr("fill", (r) => typeColor(resourceType(r.n)!));
}

/** Height the legend takes: a line of phases and a line of resource types. */
export const PHASE_LEGEND_HEIGHT = 26;

export function drawPhaseLegend(svg: Svg, top: number): void {
  const line = (cls: string, y: number, title: string, keys: { name: string; label: string; color: string }[], attr: string) => {
    const g = svg.append("g").attr("class", cls).attr("font-size", 9);
    g.append("text").attr("x", 4).attr("y", y + 8).attr("font-weight", "bold").text(title);
    let at = 90;
    for (const k of keys) {
      const key = g.append("g").attr("class", `${cls}-key`).attr(attr, k.name);
      key.append("rect").attr("x", at).attr("y", y).attr("width", 10).attr("height", 9).attr("fill", k.color);
      key.append("text").attr("x", at + 13).attr("y", y + 8).text(k.label);
      at += 20 + k.label.length * 5.2;
    }
  };
  line("phase-legend", top, "request phases", PHASES, "data-phase");
  line("type-legend", top + 13, "resource types", RESOURCE_TYPES.map((t) => ({ ...t, label: t.name })), "data-type");
}
