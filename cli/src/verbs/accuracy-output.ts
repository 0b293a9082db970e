import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { accuracySamplesJson, accuracyScatterSvg, apeByConditionSvg, stackLabel, type AccuracySamples } from "@pagepath/results";
import { conditionName } from "@pagepath/runner";
import { accuracyMarkdown } from "./accuracy-markdown.js";
import { accuracyPlots, accuracyReport } from "./accuracy-report.js";
import { accuracyResult } from "./accuracy-result.js";
import { lanternAccuracy, lanternReport } from "./accuracy-lantern.js";
import { calibrationMarkdown, calibrationReport } from "./accuracy-simulated.js";

/**
 * Everything `accuracy` writes from a sweep's samples over `sites`, whether it just ran them or
 * merged them from earlier sweeps: OUT/samples.json, accuracy.json, the plots, lantern.json (when
 * Lantern ran) and accuracy.md, with this command; the tables go to stdout. True when every cell has
 * both clients' load time (a page without an LCP candidate is a finding, not a failure).
 */
export function writeAccuracy(out: string, doc: AccuracySamples, sites: string[], lanternWarnings: Record<string, string[]>, failures: string[]): boolean {
  const scale = { command: `pagepath ${process.argv.slice(2).join(" ")}`, sites, conditions: doc.conditions.map(conditionName), protocols: doc.configurations.map(stackLabel), runs: doc.runs };
  writeFileSync(join(out, "samples.json"), accuracySamplesJson(doc));
  const result = accuracyResult(doc, doc.samples);
  const { summary, simulated } = result;
  writeFileSync(join(out, "accuracy.json"), JSON.stringify(result, null, 1) + "\n");
  for (const g of summary.groups) {
    writeFileSync(join(out, accuracyPlots(g).scatter), accuracyScatterSvg(g));
    writeFileSync(join(out, accuracyPlots(g).byCondition), apeByConditionSvg(g));
  }
  process.stdout.write(accuracyReport(summary, out, failures));
  if (simulated) process.stdout.write(calibrationReport(simulated));
  const lantern = doc.lantern ? lanternAccuracy(out, doc.conditions, { ...doc.lantern, warnings: lanternWarnings }, doc.samples) : null;
  if (lantern) process.stdout.write(lanternReport(lantern));
  writeFileSync(join(out, "accuracy.md"), accuracyMarkdown(summary, scale, lantern?.comparison ?? null) + (simulated ? "\n" + calibrationMarkdown(simulated) : ""));
  return summary.groups.every((g) => g.metric !== "load" || g.missing.length === 0);
}
