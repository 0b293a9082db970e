import { ACCURACY_METRIC_NOUNS, compareClients, type AccuracyCalibration, type AccuracySample } from "@pagepath/results";

/** The simulator measured against what it stands for: the real emulated replay, and Chromium. */
export type Calibration = AccuracyCalibration;

export function calibration(samples: readonly AccuracySample[]): Calibration | null {
  if (!samples.some((s) => s.client === "simulated")) return null;
  return { againstReplay: compareClients(samples, "simulated", "emulated"), againstChromium: compareClients(samples, "simulated", "chromium") };
}

const pct = (x: number | null) => (x === null ? "-" : `${x.toFixed(1)}%`);

/** One row per metric and protocol: the simulator's error against the replay's median, and against Chromium's. */
function rows(c: Calibration): string[][] {
  return c.againstReplay.groups.map((g) => {
    const chromium = c.againstChromium.groups.find((x) => x.metric === g.metric && x.protocol === g.protocol)?.overall;
    const o = g.overall;
    return [ACCURACY_METRIC_NOUNS[g.metric], g.protocol, String(o.cells), pct(o.medianApePercent), pct(o.p90ApePercent), pct(o.chromiumSpread.medianPercent), pct(o.chromiumSpread.p90Percent), String(chromium?.cells ?? 0), pct(chromium?.medianApePercent ?? null), pct(chromium?.p90ApePercent ?? null)];
  });
}

const HEAD = ["metric", "protocol", "cells", "vs replay: median APE", "p90", "replay spread: median", "p90", "cells", "vs Chromium: median APE", "p90"];

export function calibrationReport(c: Calibration): string {
  const lines = ["The simulator (pagepath simulate) against the real emulated replay's median per cell, and against Chromium's:"];
  for (const r of rows(c)) lines.push(`  ${r[0]}, ${r[1]}: ${r[2]} cells, median ${r[3]}, p90 ${r[4]} (the replay's own spread: median ${r[5]}, p90 ${r[6]}); against Chromium, ${r[7]} cells: median ${r[8]}, p90 ${r[9]}`);
  for (const g of c.againstReplay.groups.filter((g) => g.metric === "load")) {
    for (const cell of g.largestErrorsFirst.slice(0, 3)) {
      lines.push(`    ${g.protocol} ${cell.site} ${cell.condition}: simulated ${cell.emulated.medianMs?.toFixed(0)} ms, replayed ${cell.chromium.medianMs?.toFixed(0)} ms (${cell.signedErrorPercent >= 0 ? "+" : ""}${cell.signedErrorPercent.toFixed(1)}%)`);
    }
  }
  return lines.join("\n") + "\n";
}

export function calibrationMarkdown(c: Calibration): string {
  return [
    "## The simulator against the real replay",
    "",
    "`pagepath simulate` (docs/simulator.md) on the same sites, conditions and protocols: its median per cell against the real emulated replay's median, beside the replay's own run-to-run spread, and against Chromium's median.",
    "",
    `| ${HEAD.join(" | ")} |`,
    `|${HEAD.map(() => "---").join("|")}|`,
    ...rows(c).map((r) => `| ${r.join(" | ")} |`),
    "",
  ].join("\n");
}
