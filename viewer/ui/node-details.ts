import type { ConnectionInfo, GraphNode } from "@pagepath/graph-builder";
import { bytes, escapeHtml, ms } from "./format.js";
import type { SiteData } from "./site-data.js";
import { phaseDurations } from "./timeline-phases.js";

export function nodeUrl(n: GraphNode): string | undefined {
  return n.resource?.url ?? n.script?.url ?? n.css?.url ?? n.parse?.url;
}

/** The hover summary. */
export function nodeSummary(n: GraphNode, site: SiteData): string {
  const size = n.resource ? `, ${bytes(n.resource.transferSize)}` : "";
  const cp = site.critical.has(n.id) ? "\non the critical path" : "";
  return `${n.kind}: ${n.label}\n${nodeUrl(n) ?? ""}\n${n.start.toFixed(1)} → ${n.end.toFixed(1)} ms (cost ${n.duration.toFixed(1)} ms${size})${cp}`;
}

function connectionText(c: ConnectionInfo): string {
  const how = c.reused === null ? "" : c.reused ? ", reused" : ", opened for this request";
  return `#${c.id}${how}${c.remoteAddress ? `, to ${c.remoteAddress}` : ""}`;
}

/** The details panel: everything the graph says about a node, and each edge's rule. */
export function showDetails(panel: HTMLElement, n: GraphNode, site: SiteData, select: (id: string) => void): void {
  const r = n.resource;
  const p = n.priority;
  const frame = site.graph.frames.find((f) => f.id === n.frameId);
  const rows: [string, string | number | null | undefined][] = [
    ["id", n.id],
    ["kind", n.kind + (n.script ? ` (${n.script.type})` : "") + (n.event ? ` (${n.event.type} on ${n.event.target})` : "")],
    ["url", nodeUrl(n)],
    ["frame", frame ? frame.url : n.frameId],
    ["start", ms(n.start)],
    ["end", ms(n.end)],
    ["duration", ms(n.duration)],
    ["excluded", n.excluded ?? "no (emulated)"],
    ["critical path", site.critical.has(n.id) ? "yes" : "no"],
    ["timer", n.timer && `${n.timer.singleShot ? "setTimeout" : "setInterval"} ${n.timer.timeoutMs} ms, fire ${n.timer.fire}`],
    ["chunk", n.chunk && `#${n.chunk.index}, bytes ${n.chunk.offset}+${n.chunk.bytes}${n.chunk.last ? ", last" : ""}`],
    ["lines", n.parse && `${n.parse.startLine ?? "?"}–${n.parse.endLine ?? "?"}`],
    ["MIME type", r?.mimeType],
    ["resource type", r?.resourceType],
    ["status", r && `${r.status ?? "–"} ${r.protocol ?? ""}`],
    ["connection", r?.connection && connectionText(r.connection)],
    ["transfer size", r && bytes(r.transferSize)],
    ["body size", r && bytes(r.bodySize)],
    ["server delay", r && ms(r.serverDelayMs)],
    ["from cache", r?.fromCache],
    ["Chrome priority", r?.priority],
    ["request phases", r?.phases && phaseDurations(r.phases).join(", ")],
    ["initiator", r && `${r.initiatorType}${r.initiatorUrl ? " " + r.initiatorUrl : ""}`],
    ["critical-path weight", p && ms(p.criticalPathWeight)],
    ["critical-path rank", p?.criticalPathRank],
    ["MIME rank", p?.mimeRank],
    ["depth weight", p?.depthWeight],
    ["depth rank", p?.depthRank],
  ];
  const dl = rows
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd data-field="${escapeHtml(k)}">${escapeHtml(String(v))}</dd>`)
    .join("");
  const edges = (dir: "in" | "out"): string =>
    site.graph.edges
      .filter((e) => (dir === "in" ? e.to : e.from) === n.id)
      .map((e) => {
        const other = dir === "in" ? e.from : e.to;
        const label = site.byId.get(other)?.label ?? other;
        return `<li class="edge-${dir}"><a data-node="${escapeHtml(other)}">${escapeHtml(label)}</a> <b title="${escapeHtml(site.rules[e.rule] ?? "")}">${escapeHtml(e.rule)}</b> ${e.how}</li>`;
      })
      .join("") || "<li>none</li>";
  panel.innerHTML = `<button type="button" id="close-details">close</button><h3>${escapeHtml(n.label)}</h3><dl>${dl}</dl><h4>incoming edges (rule, how)</h4><ul>${edges("in")}</ul><h4>outgoing edges</h4><ul>${edges("out")}</ul>`;
  panel.hidden = false;
  panel.querySelectorAll<HTMLAnchorElement>("a[data-node]").forEach((a) => a.addEventListener("click", () => select(a.dataset.node!)));
  panel.querySelector("#close-details")!.addEventListener("click", () => select(""));
}
