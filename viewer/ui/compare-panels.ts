import type { GraphNode } from "@pagepath/graph-builder";
import type { SummaryRow } from "./diff-summary.js";
import { bytes, escapeHtml, ms } from "./format.js";
import type { GraphDiff, Mark, NodePair } from "./graph-diff.js";
import { nodeUrl } from "./node-details.js";

export const MARK_COLORS: Record<Mark, string> = { only: "#e00000", timing: "#ff9900", critical: "#9b30d9" };
/** Longer lists bury the changes that matter under ones that follow from them. */
const MAX_CHANGES = 25;

/** The page-level figures of A and B and their difference; raw numbers ride along as data-value for tests and copying. */
export function summaryTable(rows: SummaryRow[]): string {
  const cell = (cls: string, r: SummaryRow, v: number | null, signed = false): string =>
    `<td class="${cls}" data-value="${v ?? ""}">${v === null ? "–" : (signed && v > 0 ? "+" : signed && v < 0 ? "−" : "") + format(r.unit, signed ? Math.abs(v) : v)}</td>`;
  const body = rows.map((r) => `<tr data-row="${r.key}"><th>${escapeHtml(r.label)}</th>${cell("a", r, r.a)}${cell("b", r, r.b)}${cell("delta", r, r.delta, true)}</tr>`);
  return `<table class="compare-summary"><thead><tr><th></th><th>A</th><th>B</th><th>B − A</th></tr></thead><tbody>${body.join("")}</tbody></table>`;
}

export function legend(thresholdMs: number): string {
  const item = (m: Mark, text: string): string => `<li><span class="swatch" style="border-color:${MARK_COLORS[m]}"></span>${escapeHtml(text)}</li>`;
  return `<ul class="compare-legend">${item("only", "only in this graph")}${item("critical", "joined or left the critical path")}${item("timing", `start or duration moved by more than ${thresholdMs} ms`)}</ul>`;
}

/**
 * The lists of differences; clicking an entry calls `pick` with the node's id in A and in B (null on
 * the side it is missing from).
 */
export function mountDiffLists(el: HTMLElement, d: GraphDiff, pick: (a: string | null, b: string | null) => void): void {
  const fetchItem = (n: GraphNode, side: "a" | "b"): string =>
    `<li><a data-${side}="${escapeHtml(n.id)}">${escapeHtml(nodeUrl(n) ?? n.label)}</a> ${n.resource ? bytes(n.resource.transferSize) : ""}</li>`;
  const pairItem = (p: NodePair, what: string): string =>
    `<li><a data-a="${escapeHtml(p.a.id)}" data-b="${escapeHtml(p.b.id)}">${escapeHtml(p.a.label.split("\n")[0]!)}</a> ${escapeHtml(what)}</li>`;
  const section = (id: string, title: string, items: string[], none: string): string =>
    `<section id="${id}"><h4>${escapeHtml(title)} (${items.length})</h4><ul>${items.join("") || `<li class="note">${escapeHtml(none)}</li>`}</ul></section>`;
  el.innerHTML = [
    section("only-a", "fetches only in A", d.onlyA.filter(isFetch).map((n) => fetchItem(n, "a")), "none"),
    section("only-b", "fetches only in B", d.onlyB.filter(isFetch).map((n) => fetchItem(n, "b")), "none"),
    section("changed", "largest timing changes", d.changed.slice(0, MAX_CHANGES).map((p) => pairItem(p, timing(p))), `none above ${d.thresholdMs} ms`),
    section("critical-changed", "critical-path changes", d.criticalChanged.map((p) => pairItem(p, p.joined ? "joined it in B" : "left it in B")), "none"),
  ].join("");
  el.querySelectorAll<HTMLAnchorElement>("a").forEach((a) => a.addEventListener("click", () => pick(a.dataset.a ?? null, a.dataset.b ?? null)));
}

function timing(p: NodePair): string {
  const signed = (v: number): string => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;
  return `start ${signed(p.startDelta)}, duration ${signed(p.durationDelta)}`;
}

/** Fetches as the summary counts them: resources and each document's first chunk. */
function isFetch(n: GraphNode): boolean {
  return n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0);
}

function format(unit: SummaryRow["unit"], v: number): string {
  return unit === "bytes" ? bytes(v) : unit === "ms" ? ms(v) : String(v);
}
