import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { corpusCatalogue, DEFAULT_GENERATED } from "@pagepath/corpus";
import type { Graph } from "@pagepath/graph-builder";
import { readManifest } from "@pagepath/profiler";
import { numberOption, type Verb } from "../verb.js";
import { DEFAULT_DATA } from "./corpus-build.js";

export const corpusListCommand: Verb = {
  name: "list",
  summary: "show the corpus sites and what has been recorded and built for each",
  usage: `
usage: pagepath corpus list [--data DIR] [--generated N]

One line per corpus site: its name, kind, whether it is recorded and built, and from its graph the
resources, bytes, domains and critical path.
  --data DIR        the corpus directory (default ${DEFAULT_DATA})
  --generated N     synthetic sites in the catalogue (default ${DEFAULT_GENERATED})
`,
  paths: { options: ["data"] },
  options: { data: { type: "string", default: DEFAULT_DATA }, generated: { type: "string" } },
  async run(values) {
    const data = String(values.data);
    const sites = corpusCatalogue(data, numberOption(values, "generated", DEFAULT_GENERATED, 0, 10_000));
    const rows = [["site", "kind", "recording", "resources", "bytes", "domains", "critical path"]];
    for (const s of sites) {
      const rec = join(data, "recordings", s.name);
      const graphFile = join(data, "graphs", `${s.name}.json`);
      const status = existsSync(join(rec, "manifest.json")) ? readManifest(rec).status : "-";
      let cells = ["-", "-", "-", "-"];
      if (existsSync(graphFile)) {
        const g = JSON.parse(readFileSync(graphFile, "utf8")) as Graph;
        const res = g.nodes.filter((n) => n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0));
        const bytes = res.reduce((sum, n) => sum + (n.resource?.bodySize ?? 0), 0);
        const domains = new Set(res.map((n) => n.resource?.origin)).size;
        cells = [String(res.length), `${(bytes / 1024).toFixed(0)} KB`, String(domains), `${g.criticalPath.totalMs.toFixed(0)} ms`];
      }
      rows.push([s.name, s.kind, status, ...cells]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    process.stdout.write(rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ")).join("\n") + "\n");
    return 0;
  },
};
