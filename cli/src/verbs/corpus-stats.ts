import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { statsReport } from "@pagepath/corpus";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

const DEFAULT_DIR = "recordings";

export const corpusStatsCommand: Verb = {
  name: "stats",
  summary: "characterise a set of recordings as seed 001 §4.2 does: CDFs and the thesis's values",
  usage: `
usage: pagepath corpus stats [DIR...] [-o DIR]

Measures every complete recording as seed 001 §4.2 (Figs 4.1-4.8) measured its 300 sites: resource
count, resource and page sizes (overall and by MIME class), domains, the largest domain's share,
iframes, bytes on CDN host names, initiator types, and from each recording's dependency graph the
activity each resource came from and where the critical path's time goes. Prints a table of
medians, 10th and 90th percentiles next to the values the thesis states, and writes stats.json,
stats.md and one SVG of CDFs per measure. Incomplete recordings are left out and listed; one that
cannot be read is reported and the others go on.
  DIR                  a recording, or a directory of recordings (default ./${DEFAULT_DIR},
                       where pagepath profile writes)
  -o, --out DIR        where the report goes (default ./stats)
`,
  paths: { options: ["out"], positionals: true },
  options: { out: { type: "string", short: "o", default: "stats" } },
  async run(values, positionals) {
    const dirs = positionals.length ? positionals : [DEFAULT_DIR];
    if (positionals.length === 0 && !existsSync(DEFAULT_DIR)) {
      throw new UsageError(`no ./${DEFAULT_DIR} here: name the recordings (made by pagepath profile --out DIR)`);
    }
    const report = statsReport(dirs, String(values.out));
    const { sites, resources } = report.summary;
    const lines = sites ? [`${sites} page(s), ${resources} resource(s); * = a value the thesis hedges`, "", report.markdown] : ["no complete recording to measure"];
    for (const s of report.skipped) lines.push(`left out ${s.dir}: ${s.reason}`);
    for (const s of report.noGraph) lines.push(`no graph for ${s.dir} (graph-based measures missing): ${s.reason}`);
    if (sites) lines.push(`wrote ${shownPath(report.files.json)}, ${shownPath(report.files.markdown)} and ${report.files.svgs.length} SVG plots in ${shownPath(dirname(report.files.markdown))}`);
    process.stdout.write(lines.join("\n") + "\n");
    return sites > 0 ? 0 : 1;
  },
};
