import type { GraphNode } from "@pagepath/graph-builder";
import { escapeHtml } from "./format.js";
import { nodeUrl } from "./node-details.js";
import type { SiteData } from "./site-data.js";

/** What the search boxes ask for; an empty field matches everything. */
export interface NodeFilter {
  text: string;
  kind: string;
  origin: string;
  mime: string;
  frame: string;
}

export function matches(n: GraphNode, f: NodeFilter): boolean {
  if (f.kind && n.kind !== f.kind) return false;
  if (f.frame && n.frameId !== f.frame) return false;
  if (f.origin && n.resource?.origin !== f.origin) return false;
  if (f.mime && !(n.resource?.mimeType ?? "").toLowerCase().includes(f.mime.toLowerCase())) return false;
  const t = f.text.trim().toLowerCase();
  return !t || `${n.id} ${n.label} ${nodeUrl(n) ?? ""}`.toLowerCase().includes(t);
}

/** Adds the filter controls for a site to `bar`; `changed` gets the new filter on every edit. */
export function mountFilter(bar: HTMLElement, site: SiteData, changed: (f: NodeFilter) => void): void {
  const g = site.graph;
  const options = (values: string[], label: (v: string) => string = (v) => v): string =>
    values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(label(v))}</option>`).join("");
  const origins = [...new Set(g.nodes.flatMap((n) => (n.resource ? [n.resource.origin] : [])))].sort();
  const kinds = [...new Set(g.nodes.map((n) => n.kind))].sort();
  const frameUrl = new Map(g.frames.map((f) => [f.id, f.url]));
  bar.insertAdjacentHTML(
    "beforeend",
    `<input id="f-text" type="search" placeholder="search id, label, URL" size="22">
<select id="f-kind"><option value="">any kind</option>${options(kinds)}</select>
<select id="f-origin"><option value="">any origin</option>${options(origins)}</select>
<input id="f-mime" type="search" placeholder="MIME type" size="10">
<select id="f-frame"><option value="">any frame</option>${options(g.frames.map((f) => f.id), (id) => frameUrl.get(id) ?? id)}</select>`,
  );
  const read = (id: string): string => bar.querySelector<HTMLInputElement>(`#${id}`)!.value;
  for (const id of ["f-text", "f-kind", "f-origin", "f-mime", "f-frame"]) {
    bar.querySelector(`#${id}`)!.addEventListener("input", () =>
      changed({ text: read("f-text"), kind: read("f-kind"), origin: read("f-origin"), mime: read("f-mime"), frame: read("f-frame") }),
    );
  }
}
