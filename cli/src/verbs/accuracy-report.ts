import { join } from "node:path";
import { ACCURACY_METRIC_NOUNS, lcpElementKey, stackLabel, type AccuracyGroup, type AccuracySample, type AccuracySummary, type RunResult } from "@pagepath/results";

/** Cells per group the table shows. */
const SHOWN = 8;

/** A run as the accuracy summary counts it: only an ok run's times count. */
export function accuracySample(r: RunResult): AccuracySample {
  const ok = r.status === "ok";
  const m = r.metrics;
  return {
    site: r.site.name,
    condition: r.configuration.network.name,
    protocol: stackLabel(r.configuration),
    client: r.client,
    metrics: {
      load: ok ? m.loadMs : null,
      dcl: ok ? m.domContentLoadedMs : null,
      // Results made before the paint metrics have none: absent, so they make no group.
      ...(m.firstContentfulPaintMs === undefined ? {} : { fcp: ok ? m.firstContentfulPaintMs : null }),
      ...(m.largestContentfulPaintMs === undefined ? {} : { lcp: ok ? m.largestContentfulPaintMs : null }),
    },
    missing: { lcp: m.largestContentfulPaintMissing ?? null },
    // Absent in results made before runs named it: such runs say nothing of the element.
    ...(m.largestContentfulPaintElement === undefined ? {} : { lcpElement: ok ? lcpElementKey(m.largestContentfulPaintElement) : null }),
  };
}

/** The file names of a group's two plots. */
export function accuracyPlots(g: AccuracyGroup): { scatter: string; byCondition: string } {
  const stack = g.protocol.replace("/", "-");
  return { scatter: `accuracy-${g.metric}-${stack}.svg`, byCondition: `accuracy-by-condition-${g.metric}-${stack}.svg` };
}

/** The table on stdout: one block per metric and protocol, Chromium's own spread beside the error. */
export function accuracyReport(s: AccuracySummary, out: string, failures: string[]): string {
  const pct = (x: number | null) => (x === null ? "-" : `${x.toFixed(1)}%`);
  const lines: string[] = [];
  for (const g of s.groups) {
    const o = g.overall;
    const noun = ACCURACY_METRIC_NOUNS[g.metric];
    lines.push(
      `${noun}, ${g.protocol}: emulated browser against Chromium's median, ${o.cells} site x condition cells:`,
      `  absolute percentage error: median ${pct(o.medianApePercent)}, p90 ${pct(o.p90ApePercent)}, mean ${pct(o.meanApePercent)}`,
      `  Chromium's own run-to-run spread (${o.chromiumSpread.cells} cells): median ${pct(o.chromiumSpread.medianPercent)}, p90 ${pct(o.chromiumSpread.p90Percent)}`,
      `  the emulated browser's own run-to-run spread (${o.emulatedSpread.cells} cells): median ${pct(o.emulatedSpread.medianPercent)}, p90 ${pct(o.emulatedSpread.p90Percent)}`,
      `  rank correlation (Spearman) across cells: ${o.spearman === null ? "-" : o.spearman.toFixed(3)}`,
      "  largest errors, signed (every cell's is in accuracy.json):",
      ...g.largestErrorsFirst.slice(0, SHOWN).map(
        (c) =>
          `    ${c.site.padEnd(26)} ${c.condition.padEnd(14)} emulated ${c.emulated.medianMs?.toFixed(0)} ms, Chromium ${c.chromium.medianMs?.toFixed(0)} ms (${c.signedErrorPercent >= 0 ? "+" : ""}${c.signedErrorPercent.toFixed(1)}%; spread: Chromium ${pct(c.chromiumSpreadPercent)}, emulated ${pct(c.emulatedSpreadPercent)})`,
      ),
      ...g.missing.map((m) => `  not compared: ${m.site} ${m.condition}: ${m.reason}`),
    );
  }
  const plots = s.groups.map((g) => accuracyPlots(g).scatter);
  lines.push(...failures.map((f) => `  failed: ${f}`), `results: ${join(out, "accuracy.json")}, plots ${plots.map((p) => join(out, p)).join(", ")} (and accuracy-by-condition-*.svg), runs ${join(out, "runs.jsonl")}`, "");
  return lines.join("\n");
}
