/** The experiments in the served directory; one that cannot be read is a row saying why. */
import type { ExperimentIndex } from "../src/server/api.js";
import { fetchJson } from "./fetch-json.js";

export async function renderExperimentList(main: HTMLElement, open: (file: string) => void): Promise<void> {
  const index = await fetchJson<ExperimentIndex>("/api/experiments");
  main.innerHTML = `<div class="toolbar"><span class="note">${index.experiments.length} experiments in ${index.dir}</span></div><table class="sites experiments"><thead><tr><th class="name">experiment</th><th class="description">description</th><th>client</th><th>sites</th><th>networks</th><th>runs done / planned</th><th>failed</th><th>warnings</th></tr></thead><tbody></tbody></table>`;
  const body = d3.select(main).select("tbody");
  for (const row of index.experiments) {
    const tr = body.append("tr").attr("data-file", row.file);
    if (!row.ok) {
      tr.attr("class", "error").append("td").attr("colspan", 8).text(`${row.name}: cannot be shown: ${row.error}`);
      continue;
    }
    tr.append("td").attr("class", "name").append("a").attr("class", "open-experiment").text(row.name).on("click", () => open(row.file));
    tr.append("td").attr("class", "description").text(row.description);
    for (const v of [row.client, row.sites, row.networks, `${row.done} / ${row.planned}`, row.failed, row.warnings]) tr.append("td").text(String(v));
  }
  if (index.experiments.length === 0) body.append("tr").append("td").attr("colspan", 8).text("No experiments here: a sweep writes <name>.plan.json and <name>.runs.jsonl.");
}
