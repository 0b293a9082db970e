/**
 * The recording's page markers on the timeline (DOMContentLoaded, load, first and largest contentful
 * paint), as DevTools marks them. Their times are often within a few ms of each other, so their labels
 * are staggered onto as many lines as it takes for none to overlap another.
 */
import type { Graph } from "@pagepath/graph-builder";

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
type Scale = d3.ScaleLinear<number, number>;

/** Label height: one line per stagger step. */
export const MARKER_LINE = 11;
const FONT = "10px Helvetica";
/** Room between two labels on one line. */
const GAP = 6;

export interface Marker {
  name: string;
  t: number;
  color: string;
}

/** DevTools' colours: DOMContentLoaded blue, load red, the paints green. */
export function pageMarkers(g: Graph): Marker[] {
  const r = g.recorded;
  const all: [string, number | null | undefined, string][] = [
    ["DOMContentLoaded", r.domContentLoaded, "#1a73e8"],
    ["load", r.load, "#d93025"],
    ["FCP", r.firstContentfulPaint, "#1e8e3e"],
    ["LCP", r.largestContentfulPaint, "#0b5a2a"],
  ];
  return all.filter(([, t]) => t !== null && t !== undefined).map(([name, t, color]) => ({ name, t: t!, color }));
}

let measure: CanvasRenderingContext2D | null = null;

/** The width the label will take, measured in the font the SVG draws it in, before it is drawn. */
function textWidth(text: string): number {
  measure ??= document.createElement("canvas").getContext("2d")!;
  measure.font = FONT;
  return measure.measureText(text).width;
}

/** Each marker's label line (0 = top), the first line on which it clears the labels already there. */
export function staggerLines(markers: Marker[], x: Scale): number[] {
  const lineEnds: number[] = [];
  const order = markers.map((m, i) => ({ i, left: x(m.t) + 3 })).sort((a, b) => a.left - b.left);
  const lines: number[] = new Array(markers.length).fill(0);
  for (const { i, left } of order) {
    let line = lineEnds.findIndex((end) => end + GAP <= left);
    if (line < 0) line = lineEnds.push(0) - 1;
    lineEnds[line] = left + textWidth(markers[i]!.name);
    lines[i] = line;
  }
  return lines;
}

/** How many label lines the markers take. */
export function markerLineCount(markers: Marker[], x: Scale): number {
  return Math.max(1, ...staggerLines(markers, x).map((l) => l + 1));
}

/** Draws each marker's line from `top` to `bottom` and its label on its stagger line below `top`. */
export function drawMarkers(svg: Svg, markers: Marker[], x: Scale, top: number, bottom: number): void {
  const lines = staggerLines(markers, x);
  markers.forEach((m, i) => {
    const g = svg.append("g").attr("class", "marker").attr("data-marker", m.name);
    g.append("title").text(`${m.name} at ${m.t.toFixed(1)} ms`);
    g.append("line").attr("x1", x(m.t)).attr("x2", x(m.t)).attr("y1", top - 10).attr("y2", bottom).attr("stroke", m.color).attr("stroke-dasharray", "4,3");
    g.append("text").attr("x", x(m.t) + 3).attr("y", top + MARKER_LINE * lines[i]!).attr("font-size", 10).attr("fill", m.color).text(m.name);
  });
}
