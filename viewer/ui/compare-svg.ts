const GAP = 40;
const TITLE = 28;

/** Standalone drawings side by side in one SVG, each under its title, for exporting the compare view. */
export function sideBySideSvg(parts: { title: string; svg: SVGSVGElement }[]): SVGSVGElement {
  const size = (s: SVGSVGElement, attr: string): number => Number(s.getAttribute(attr)) || 0;
  const width = parts.reduce((w, p) => w + size(p.svg, "width"), 0) + GAP * (parts.length - 1);
  const height = Math.max(...parts.map((p) => size(p.svg, "height"))) + TITLE;
  const root = d3
    .create("svg")
    .attr("xmlns", "http://www.w3.org/2000/svg")
    .attr("viewBox", `0 0 ${width} ${height}`)
    .attr("width", width)
    .attr("height", height)
    .attr("font-family", "Helvetica, Arial, sans-serif");
  root.append("rect").attr("width", width).attr("height", height).attr("fill", "#ffffff");
  let x = 0;
  for (const p of parts) {
    root.append("text").attr("x", x + 10).attr("y", 18).attr("font-size", 14).attr("font-weight", "bold").text(p.title);
    p.svg.setAttribute("x", String(x));
    p.svg.setAttribute("y", String(TITLE));
    root.node()!.append(p.svg);
    x += size(p.svg, "width") + GAP;
  }
  return root.node()!;
}
