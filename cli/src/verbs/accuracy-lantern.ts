import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lanternEngine, lanternInputs, readRecordingTrace, simulateLantern } from "@pagepath/lantern";
import { conditionName, type Condition } from "@pagepath/runner";
import type { AccuracyCondition, AccuracySample } from "@pagepath/results";
import { compareWithChromium, type LanternCell, type MetricComparison } from "../lantern-errors.js";

/** Why a condition of several paths has no Lantern cell. */
const ONE_PATH = "Lantern simulates one path";

export interface LanternAccuracy {
  /** Lantern's predictions, one per site and condition. */
  cells: LanternCell[];
  /** Beside the emulated browser's, against the same Chromium runs. */
  comparison: MetricComparison[];
  /** Written here. */
  file: string;
}

/** Lantern's predictions: one cell per site and condition, and what it warned of per site. */
export interface LanternPredictions {
  engine: string;
  cells: LanternCell[];
  warnings: Record<string, string[]>;
}

/**
 * Lantern on each site's recording (DATA/recordings/<site>, the recording its graph was built from)
 * under each condition of an accuracy sweep. A site Lantern cannot simulate is a cell with its error,
 * not a failure of the sweep; so is a condition of several paths, since Lantern simulates one.
 */
export async function lanternPredictions(a: { data: string; sites: string[]; conditions: Condition[] }): Promise<LanternPredictions> {
  const cells: LanternCell[] = [];
  const warnings: Record<string, string[]> = {};
  for (const site of a.sites) {
    let inputs: Awaited<ReturnType<typeof lanternInputs>> | null = null;
    let error: string | null = null;
    try {
      inputs = await lanternInputs(readRecordingTrace(join(a.data, "recordings", site)));
      if (inputs.warnings.length) warnings[site] = inputs.warnings;
    } catch (e) {
      error = (e as Error).message;
    }
    for (const condition of a.conditions) {
      const multipath = (condition.morePaths?.length ?? 0) > 0;
      const cell: LanternCell = { site, condition: conditionName(condition), fcpMs: null, lcpMs: null, interactiveMs: null, error: multipath ? ONE_PATH : error };
      if (inputs && !multipath) {
        try {
          const p = simulateLantern(inputs, { rttMs: condition.rttMs, throughputMbit: condition.rateMbit });
          Object.assign(cell, { fcpMs: p.fcpMs, lcpMs: p.lcpMs, interactiveMs: p.interactiveMs });
        } catch (e) {
          cell.error = (e as Error).message;
        }
      }
      cells.push(cell);
    }
  }
  return { engine: lanternEngine(), cells, warnings };
}

/** Lantern's predictions against the samples' Chromium runs, beside the emulated browser's; writes OUT/lantern.json. */
export function lanternAccuracy(out: string, conditions: readonly AccuracyCondition[], p: LanternPredictions, samples: readonly AccuracySample[]): LanternAccuracy {
  const comparison = compareWithChromium(p.cells, samples);
  const file = join(out, "lantern.json");
  writeFileSync(file, JSON.stringify({ kind: "pagepath-lantern-accuracy", engine: p.engine, conditions, cells: p.cells, warnings: p.warnings, comparison }, null, 1) + "\n");
  return { cells: p.cells, comparison, file };
}

/** The table `accuracy --lantern` prints. */
export function lanternReport(r: LanternAccuracy): string {
  const pct = (x: number | null) => (x === null ? "-" : `${x.toFixed(1)}%`).padStart(7);
  const failed = r.cells.filter((c) => c.error !== null);
  const lines = [
    "Lantern beside the emulated browser, against Chromium's median per site and condition (absolute percentage error,",
    "over the cells where both have a value):",
    `  ${"stack".padEnd(9)} ${"metric".padEnd(28)} ${"cells".padStart(5)}   ${"emulated: median".padStart(16)} ${"p90".padStart(7)}   ${"Lantern: median".padStart(15)} ${"p90".padStart(7)}`,
    ...r.comparison.map((m) => {
      const name = m.lanternLabel === m.metric ? m.metric : `${m.metric} (Lantern: ${m.lanternLabel})`;
      return `  ${m.stack.padEnd(9)} ${name.padEnd(28)} ${String(m.emulated.cells).padStart(5)}   ${pct(m.emulated.medianApePercent).padStart(16)} ${pct(m.emulated.p90ApePercent)}   ${pct(m.lantern.medianApePercent).padStart(15)} ${pct(m.lantern.p90ApePercent)}`;
    }),
    "  Lantern predicts no load event: its Interactive stands beside Chromium's load.",
    ...[...new Map(failed.map((c) => [`${c.site}|${c.error}`, c])).values()].map((c) => `  Lantern could not simulate ${c.site}${c.error === ONE_PATH ? ` under ${c.condition}` : ""}: ${c.error}`),
    `Lantern's predictions and errors: ${r.file}`,
    "",
  ];
  return lines.join("\n");
}
