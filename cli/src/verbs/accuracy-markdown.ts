import { ACCURACY_METRIC_NOUNS, median, percentile, type AccuracySummary } from "@pagepath/results";
import type { MetricComparison } from "../lantern-errors.js";
import { accuracyPlots } from "./accuracy-report.js";

/** How often the two clients' LCP was the same element, and the error of each kind of cell. */
function elementLines(e: AccuracySummary["groups"][number]["overall"]["lcpElement"], pct: (x: number | null) => string): string[] {
  if (!e) return [];
  if (e.cells === 0) return ["No cell has an LCP element named by both clients.", ""];
  return [`The LCP element: the same in ${e.same} of the ${e.cells} cells where both clients name theirs (median APE ${pct(e.medianApePercentSame)} in those, ${pct(e.medianApePercentDifferent)} in the others).`, ""];
}

/** Cells per metric the worst-cells list shows. */
const WORST = 5;

export interface AccuracyScale {
  command: string;
  sites: string[];
  conditions: string[];
  protocols: string[];
  runs: number;
}

/**
 * OUT/accuracy.md: the tables and plots of a sweep as docs/accuracy.md shows them, with the command
 * that made them and its scale, so a reader can make them again. Pure: the summary in, Markdown out.
 */
export function accuracyMarkdown(s: AccuracySummary, scale: AccuracyScale, lantern: MetricComparison[] | null): string {
  const pct = (x: number | null) => (x === null ? "-" : `${x.toFixed(1)}%`);
  const lines = [
    "# Accuracy of the emulated browser against Chromium",
    "",
    "Made by:",
    "",
    "```sh",
    scale.command,
    "```",
    "",
    `Scale: ${scale.sites.length} sites (${scale.sites.join(", ")}) x ${scale.conditions.length} conditions (${scale.conditions.join(", ")}) x ` +
      `${scale.protocols.length} protocols (${scale.protocols.join(", ")}) x ${scale.runs} runs of each client. A cell is a site under one condition; ` +
      "each client's runs in it are summed up by their median, and the emulated browser's median is compared with Chromium's. " +
      "Chromium's spread is each Chromium run against the median of the cell's other runs: the floor under any predictor's error. " +
      "The emulated browser's spread is the same over its own runs: where a cell's error is within it, the model's outcome varies from run to run.",
    "",
    "| metric | protocol | cells | median APE | p90 APE | mean APE | Spearman | Chromium spread: median | p90 | emulated spread: median | p90 |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...s.groups.map((g) => {
      const o = g.overall;
      return `| ${ACCURACY_METRIC_NOUNS[g.metric]} | ${g.protocol} | ${o.cells} | ${pct(o.medianApePercent)} | ${pct(o.p90ApePercent)} | ${pct(o.meanApePercent)} | ${o.spearman === null ? "-" : o.spearman.toFixed(3)} | ${pct(o.chromiumSpread.medianPercent)} | ${pct(o.chromiumSpread.p90Percent)} | ${pct(o.emulatedSpread.medianPercent)} | ${pct(o.emulatedSpread.p90Percent)} |`;
    }),
    "",
    ...byCondition(s, scale.conditions, pct),
  ];
  if (lantern) {
    lines.push(
      "Lantern (Lighthouse's simulator, docs/lantern.md) beside the emulated browser, over the cells where both have a value; Lantern predicts no load event, so its Interactive stands beside Chromium's load:",
      "",
      "| metric | protocol | cells | emulated: median APE | p90 | Lantern: median APE | p90 |",
      "|---|---|---|---|---|---|---|",
      ...lantern.map((m) => `| ${m.lanternLabel === m.metric ? m.metric : `${m.metric} (Lantern: ${m.lanternLabel})`} | ${m.stack} | ${m.emulated.cells} | ${pct(m.emulated.medianApePercent)} | ${pct(m.emulated.p90ApePercent)} | ${pct(m.lantern.medianApePercent)} | ${pct(m.lantern.p90ApePercent)} |`),
      "",
    );
  }
  for (const g of s.groups) {
    const plots = accuracyPlots(g);
    lines.push(
      `## ${ACCURACY_METRIC_NOUNS[g.metric]}, ${g.protocol}`,
      "",
      `![emulated against Chromium](${plots.scatter}) ![error by condition](${plots.byCondition})`,
      "",
      ...elementLines(g.overall.lcpElement, pct),
      "The largest errors (signed: positive when the emulated browser is slower):",
      "",
      ...g.largestErrorsFirst.slice(0, WORST).map(
        (c) =>
          `- ${c.site} at ${c.condition}: emulated ${c.emulated.medianMs?.toFixed(0)} ms, Chromium ${c.chromium.medianMs?.toFixed(0)} ms (${c.signedErrorPercent >= 0 ? "+" : ""}${c.signedErrorPercent.toFixed(1)}%; Chromium's spread ${pct(c.chromiumSpreadPercent)}, the emulated browser's ${pct(c.emulatedSpreadPercent)})` +
          (c.lcpElement?.same === false ? `; Chromium painted ${c.lcpElement.chromium}, the emulated browser ${c.lcpElement.emulated}` : ""),
      ),
      ...g.missing.map((m) => `- not compared: ${m.site} at ${m.condition}: ${m.reason}`),
      "",
    );
  }
  return lines.join("\n");
}

/**
 * Each group's cells condition by condition, in the sweep's order: where the error lives (the
 * costs of a fast link, the bytes of a slow one). The spread here is each cell's Chromium spread,
 * summed up over the condition's cells.
 */
function byCondition(s: AccuracySummary, conditions: readonly string[], pct: (x: number | null) => string): string[] {
  if (conditions.length < 2) return [];
  const rows: string[] = [];
  for (const g of s.groups) {
    for (const condition of conditions) {
      const cells = g.cells.filter((c) => c.condition === condition);
      if (cells.length === 0) continue;
      const apes = cells.map((c) => c.apePercent);
      const spreads = cells.flatMap((c) => (c.chromiumSpreadPercent === null ? [] : [c.chromiumSpreadPercent]));
      const signed = median(cells.map((c) => c.signedErrorPercent));
      rows.push(`| ${ACCURACY_METRIC_NOUNS[g.metric]} | ${g.protocol} | ${condition} | ${cells.length} | ${pct(median(apes))} | ${pct(percentile(apes, 90))} | ${signed >= 0 ? "+" : ""}${pct(signed)} | ${pct(spreads.length ? median(spreads) : null)} |`);
    }
  }
  return [
    "By condition (signed: above 0 when the emulated browser is slower; Chromium's spread: the median of its cells' spreads):",
    "",
    "| metric | protocol | condition | cells | median APE | p90 APE | signed median | Chromium spread |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ];
}
