import { compareCells, sortableHeader, type SortOrder } from "./sortable-header.js";
import type { SiteIndex, SiteRow, SiteSummary } from "../src/server/api.js";
import { fetchJson } from "./fetch-json.js";
import { bytes, escapeHtml, ms } from "./format.js";
import { drawRunFiles } from "./run-files-table.js";
import { go } from "./state.js";

interface Column {
  key: string;
  title: string;
  value(s: SiteSummary): number | string;
  cell(s: SiteSummary): string;
}

const BREAKDOWN_COLORS: Record<string, string> = { network: "#0040ff", script: "#e00000", parse: "#000000", css: "#f08080", other: "#ff8c00" };

const COLUMNS: Column[] = [
  { key: "pick", title: "compare", value: (s) => (picked.includes(s.file) ? 0 : 1), cell: () => "" },
  { key: "name", title: "site", value: (s) => s.name, cell: (s) => s.name },
  { key: "url", title: "url", value: (s) => s.url, cell: (s) => s.url },
  { key: "status", title: "status", value: (s) => s.status, cell: (s) => s.status + (s.mode === "full" ? "" : ` (${s.mode})`) },
  { key: "resources", title: "resources", value: (s) => s.resources, cell: (s) => String(s.resources) },
  { key: "bytes", title: "bytes", value: (s) => s.bytes, cell: (s) => bytes(s.bytes) },
  { key: "domains", title: "domains", value: (s) => s.domains, cell: (s) => String(s.domains) },
  { key: "nodes", title: "nodes", value: (s) => s.nodes, cell: (s) => String(s.nodes) },
  { key: "cp", title: "critical path", value: (s) => s.criticalPath.totalMs, cell: (s) => ms(s.criticalPath.totalMs) },
  { key: "breakdown", title: "path ms: net/js/parse/css/other", value: (s) => s.criticalPath.breakdown.network / (s.criticalPath.totalMs || 1), cell: breakdownCell },
  { key: "load", title: "load (recorded)", value: (s) => s.recorded.load ?? Infinity, cell: (s) => ms(s.recorded.load) },
  { key: "recording", title: "recording", value: (s) => s.recording?.startedAt ?? "", cell: (s) => (s.recording ? `${s.recording.dir} (${s.recording.status})` : "–") },
];

const order: SortOrder = { key: "name", ascending: true };
let filterText = "";
/** Graphs ticked for comparison, in the order ticked: the first becomes A. */
let picked: string[] = [];

export async function renderIndex(main: HTMLElement): Promise<void> {
  const index = await fetchJson<SiteIndex>("/api/sites");
  const runs = index.runs.length ? ` and ${index.runs.length} run result${index.runs.length === 1 ? "" : "s"}` : "";
  main.innerHTML = `<div class="toolbar"><input id="site-filter" type="search" placeholder="filter sites (name, url)" size="40"><button type="button" id="compare-selected" title="tick two graphs; the first ticked is A">compare selected</button><span class="note">${index.sites.length} graphs${runs} in ${escapeHtml(index.dir)}</span></div><table class="sites"><thead></thead><tbody></tbody></table>`;
  const input = main.querySelector<HTMLInputElement>("#site-filter")!;
  input.value = filterText;
  const files = new Set(index.sites.flatMap((r) => (r.ok ? [r.site.file] : [])));
  picked = picked.filter((f) => files.has(f));
  main.querySelector("#compare-selected")!.addEventListener("click", () => go({ view: "compare", site: picked[0]!, other: picked[1]!, node: null }));
  updateCompareButton(main);
  input.addEventListener("input", () => {
    filterText = input.value;
    drawRows(main, index.sites);
  });
  drawRows(main, index.sites);
  drawRunFiles(main, index.runs);
}

function drawRows(main: HTMLElement, rows: SiteRow[]): void {
  const col = COLUMNS.find((c) => c.key === order.key)!;
  const needle = filterText.trim().toLowerCase();
  const matches = (r: SiteRow): boolean => !needle || (r.ok ? `${r.site.name} ${r.site.url}` : `${r.name} ${r.error}`).toLowerCase().includes(needle);
  const ok = rows.flatMap((r) => (r.ok && matches(r) ? [r.site] : []));
  ok.sort((a, b) => compareCells(col.value(a), col.value(b)) * (order.ascending ? 1 : -1));
  const head = d3.select(main).select("thead").selectAll<HTMLTableRowElement, null>("tr").data([null]).join("tr");
  sortableHeader(head, COLUMNS, order, () => drawRows(main, rows));
  const body = d3.select(main).select("tbody");
  body.selectAll("tr").remove();
  for (const s of ok) {
    const tr = body.append("tr").attr("data-file", s.file);
    for (const c of COLUMNS) {
      const td = tr.append("td").attr("class", c.key).attr("title", c.key === "url" ? s.url : null);
      if (c.key === "pick")
        td.append("input")
          .attr("type", "checkbox")
          .attr("class", "pick")
          .property("checked", picked.includes(s.file))
          .on("change", (e: Event) => {
            picked = (e.target as HTMLInputElement).checked ? [...picked, s.file] : picked.filter((f) => f !== s.file);
            updateCompareButton(main);
          });
      else if (c.key === "name") td.append("a").attr("class", "open-site").text(s.name).on("click", () => go({ view: "graph", site: s.file, node: null }));
      else if (c.key === "breakdown") td.html(c.cell(s));
      else td.text(c.cell(s));
    }
  }
  for (const r of rows) {
    if (r.ok || !matches(r)) continue;
    body.append("tr").attr("class", "error").attr("data-file", r.file).append("td").attr("colspan", COLUMNS.length).text(`${r.name}: cannot be shown: ${r.error}`);
  }
}

function updateCompareButton(main: HTMLElement): void {
  const button = main.querySelector<HTMLButtonElement>("#compare-selected")!;
  button.disabled = picked.length !== 2;
  button.textContent = picked.length === 2 ? "compare selected (A: first ticked)" : `compare selected (${picked.length} of 2 ticked)`;
}

function breakdownCell(s: SiteSummary): string {
  const total = s.criticalPath.totalMs || 1;
  const parts = Object.entries(s.criticalPath.breakdown).map(
    ([k, v]) => `<span style="width:${(100 * v) / total}%;background:${BREAKDOWN_COLORS[k]}" title="${k} ${v.toFixed(1)} ms"></span>`,
  );
  const text = Object.values(s.criticalPath.breakdown).map((v) => v.toFixed(0)).join("/");
  return `<span class="breakdown-bar">${parts.join("")}</span> ${text}`;
}

