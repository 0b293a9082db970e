/** A sortable table of an experiment's runs; a time that was not measured says so. */
import { compareCells, sortableHeader, type SortOrder } from "./sortable-header.js";
import type { RunRow } from "../src/server/api.js";
import { msText } from "./results-data.js";
import { sharesInBrief } from "./path-use-text.js";

interface Column {
  key: string;
  title: string;
  value(r: RunRow): number | string;
  cell(r: RunRow): string;
}

/** Rows beyond this are not drawn (a sweep can hold millions); sorting still sees all of them. */
const MAX_ROWS = 2000;

const measured = (v: number | null | undefined) => (v === null || v === undefined ? "not measured" : msText(v));
const COLUMNS: Column[] = [
  { key: "site", title: "site", value: (r) => r.site, cell: (r) => r.site },
  { key: "protocol", title: "protocol", value: (r) => r.protocol, cell: (r) => r.protocol },
  { key: "transport", title: "transport", value: (r) => r.transport, cell: (r) => r.transport },
  { key: "network", title: "network", value: (r) => r.network, cell: (r) => r.network },
  { key: "serverModel", title: "server model", value: (r) => r.serverModel, cell: (r) => r.serverModel },
  { key: "priority", title: "priority", value: (r) => r.priority, cell: (r) => r.priority },
  { key: "run", title: "run", value: (r) => r.run, cell: (r) => String(r.run) },
  { key: "seed", title: "seed", value: (r) => r.seed, cell: (r) => String(r.seed) },
  { key: "dcl", title: "DCL ms", value: (r) => r.domContentLoadedMs ?? Infinity, cell: (r) => measured(r.domContentLoadedMs) },
  { key: "load", title: "load ms", value: (r) => r.loadMs ?? Infinity, cell: (r) => measured(r.loadMs) },
  { key: "fcp", title: "FCP ms", value: (r) => r.firstContentfulPaintMs ?? Infinity, cell: (r) => measured(r.firstContentfulPaintMs) },
  { key: "lcp", title: "LCP ms", value: (r) => r.largestContentfulPaintMs ?? Infinity, cell: (r) => measured(r.largestContentfulPaintMs) },
  // Sorted by path 0's share: with two paths, how much the scheduler kept on the first one.
  { key: "share", title: "bytes down by path", value: (r) => r.bytesDownShare[0] ?? Infinity, cell: (r) => sharesInBrief(r.bytesDownShare) },
  { key: "scheduler", title: "scheduler", value: (r) => r.scheduler ?? "", cell: (r) => r.scheduler ?? "–" },
  { key: "status", title: "status", value: (r) => r.status, cell: (r) => (r.error === null ? r.status : `${r.status}: ${r.error}`) },
];

const order: SortOrder = { key: "site", ascending: true };

export function drawRunsTable(container: HTMLElement, runs: RunRow[]): void {
  const col = COLUMNS.find((c) => c.key === order.key)!;
  const sorted = [...runs].sort((a, b) => compareCells(col.value(a), col.value(b)) * (order.ascending ? 1 : -1));
  const root = d3.select(container);
  root.selectAll("*").remove();
  if (sorted.length > MAX_ROWS) root.append("p").attr("class", "note").text(`showing ${MAX_ROWS} of ${sorted.length} runs in this order; sort by another column to see others`);
  const table = root.append("table").attr("class", "sites runs");
  sortableHeader(table.append("thead").append("tr"), COLUMNS, order, () => drawRunsTable(container, runs));
  const tr = table.append("tbody").selectAll("tr").data(sorted.slice(0, MAX_ROWS)).join("tr").attr("class", (r) => (r.status === "failed" ? "failed" : null));
  tr.selectAll("td")
    .data((r) => COLUMNS.map((c) => ({ c, r })))
    .join("td")
    .attr("class", (d) => d.c.key + (d.c.key === "load" && d.r.loadMs === null ? " not-measured" : ""))
    .text((d) => d.c.cell(d.r));
}

