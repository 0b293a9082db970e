/** The index's table of run result files (pagepath replay's), load and paints beside how the bytes split over the paths: each opens its graph's timeline with the run. */
import type { RunFileRow } from "../src/server/api.js";
import { escapeHtml, ms } from "./format.js";
import { sharesInBrief } from "./path-use-text.js";
import { go } from "./state.js";

export function drawRunFiles(main: HTMLElement, rows: RunFileRow[]): void {
  if (rows.length === 0) return;
  const section = document.createElement("section");
  section.innerHTML =
    `<h3 class="index-heading">replayed runs (run result files)</h3><table class="sites replayed-runs"><thead><tr>` +
    ["run result", "site", "client", "network", "protocol", "server model", "priority", "DOMContentLoaded", "load", "FCP", "LCP", "bytes down by path", "scheduler", "status", "graph"].map((t) => `<th>${t}</th>`).join("") +
    `</tr></thead><tbody></tbody></table>`;
  const body = section.querySelector("tbody")!;
  for (const row of rows) {
    const tr = body.appendChild(document.createElement("tr"));
    tr.dataset.file = row.ok ? row.run.file : row.file;
    if (!row.ok) {
      tr.className = "error";
      tr.innerHTML = `<td colspan="15">${escapeHtml(`${row.file}: cannot be shown: ${row.error}`)}</td>`;
      continue;
    }
    const r = row.run;
    const c = r.cell;
    const cells = [r.site, r.client, c.network, `${c.protocol}/${c.transport}`, c.serverModel, c.priority, ms(r.metrics.domContentLoadedMs), ms(r.metrics.loadMs), ms(r.metrics.firstContentfulPaintMs), ms(r.metrics.largestContentfulPaintMs), sharesInBrief(r.pathUse.shares.map((p) => p.wireShare)), r.pathUse.scheduler ?? "–", r.error === null ? r.status : `${r.status}: ${r.error}`];
    const graph = r.graphProblem === null ? escapeHtml(r.graph) : `${escapeHtml(r.graph)}: ${escapeHtml(r.graphProblem)}`;
    tr.innerHTML = `<td class="file"></td>${cells.map((v) => `<td>${escapeHtml(v)}</td>`).join("")}<td class="graph${r.graphProblem === null ? "" : " problem"}">${graph}</td>`;
    const first = tr.querySelector("td")!;
    if (r.graphProblem !== null) {
      first.textContent = r.file;
      continue;
    }
    const a = first.appendChild(document.createElement("a"));
    a.className = "open-run";
    a.textContent = r.file;
    a.title = "the graph's timeline with this run's timings under the recorded ones";
    a.addEventListener("click", () => go({ view: "timeline", site: r.graph, run: r.file, vs: null, node: null }));
  }
  main.appendChild(section);
}
