import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { accuracySamplesJson, accuracyScatterSvg, apeByConditionSvg, type AccuracySamples, type AccuracySummary } from "@pagepath/results";
import { accuracyMarkdown, type AccuracyScale } from "./accuracy-markdown.js";
import { accuracyPlots, accuracyReport } from "./accuracy-report.js";
import { accuracyResult } from "./accuracy-result.js";
import { lanternAccuracy, lanternReport } from "./accuracy-lantern.js";
import { calibrationMarkdown, calibrationReport } from "./accuracy-simulated.js";

/**
 * Everything `accuracy` writes from a sweep's samples, whether it just ran them or merged them from
 * earlier sweeps: OUT/samples.json, accuracy.json, the plots, lantern.json (when Lantern ran) and
 * accuracy.md; the tables go to stdout.
 */
export function writeAccuracy(out: string, doc: AccuracySamples, lanternWarnings: Record<string, string[]>, failures: string[], scale: AccuracyScale): AccuracySummary {
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
  return summary;
}
