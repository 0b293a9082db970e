import type { Layout } from "../src/server/api.js";
import { RULE_MEANING } from "./edge-rules.js";
import type { SiteData } from "./site-data.js";

/** What each node kind stands for, in the words of the graph format (docs/formats/graph.md). */
const KIND_MEANING: Record<string, string> = {
  download: "HTML bytes arriving",
  parse: "HTML parsing",
  resource: "resource fetched",
  script: "script run",
  css: "style sheet parsed",
  timer: "timer callback",
  event: "event handler",
  render: "style, layout, paint",
  dcl: "DOMContentLoaded",
  load: "load event",
  fcp: "first contentful paint",
  lcp: "largest contentful paint",
  preconnect: "connection opened ahead",
};

/**
 * The legend of the graph on screen: each node kind the graph has, drawn in the colour and shape
 * the layout gave its nodes (so it cannot disagree with the drawing), the edge styles, and the
 * dependency rules its edges follow, with how many edges follow each.
 */
export function graphLegend(site: SiteData, layout: Layout): HTMLElement {
  const drawn = new Map(layout.nodes.map((n) => [n.id, n]));
  const seen = new Map<string, { color: string; shape: string }>();
  for (const n of site.graph.nodes) {
    const d = drawn.get(n.id);
    if (d && !seen.has(n.kind)) seen.set(n.kind, { color: d.color, shape: d.shape });
  }
  const ul = document.createElement("ul");
  ul.className = "graph-legend";
  for (const kind of Object.keys(KIND_MEANING).filter((k) => seen.has(k))) {
    const { color, shape } = seen.get(kind)!;
    const li = document.createElement("li");
    li.dataset.kind = kind;
    li.dataset.color = color;
    li.innerHTML = `<span class="swatch ${shape === "box" ? "" : "round"}" style="border-color:${color}"></span>${kind}: ${KIND_MEANING[kind]}`;
    ul.append(li);
  }
  for (const [cls, text] of [["critical", "critical path: thick"], ["inferred", "edge inferred from timing or an import, not observed: dashed"], ["frame", "frame: grey box"]]) {
    const li = document.createElement("li");
    li.className = `edge-${cls}`;
    li.innerHTML = `<span class="swatch ${cls}"></span>${text}`;
    ul.append(li);
  }
  ul.append(rulesItem(site));
  return ul;
}

/** The rules of the graph's edges, most used first, folded until asked for. */
function rulesItem(site: SiteData): HTMLElement {
  const counts = new Map<string, number>();
  for (const e of site.graph.edges) counts.set(e.rule, (counts.get(e.rule) ?? 0) + 1);
  const li = document.createElement("li");
  li.className = "edge-rules";
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = `edge rules (${counts.size})`;
  details.append(summary);
  const table = document.createElement("table");
  for (const [rule, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    const row = table.insertRow();
    row.dataset.rule = rule;
    for (const text of [rule, String(n), RULE_MEANING[rule] ?? "(see docs/formats/graph.md)"]) row.insertCell().textContent = text;
  }
  details.append(table);
  li.append(details);
  return li;
}
