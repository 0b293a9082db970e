/** Per configuration and network of the family: how many runs there are, how they ended, and the metric's statistics. */
import type { ExperimentPlan } from "../experiment.js";
import type { RunResult } from "../run-result.js";
import type { AnalysisConfiguration } from "./configurations.js";
import { measuredValue, type MetricName } from "./metric.js";
import { gridPointOf, type GridPoint } from "./network-family.js";
import { sampleStatistics, type SampleStatistics } from "./sample-statistics.js";

export interface NetworkStatistics extends SampleStatistics {
  network: string;
  point: GridPoint;
  /** Lines that count (the last of each cell). */
  runs: number;
  ok: number;
  failed: number;
  incomplete: number;
  /** ok runs that measured the metric: the statistics are theirs alone. */
  measured: number;
}

export type ConfigurationSummary = AnalysisConfiguration & { byNetwork: NetworkStatistics[] };

export function configurationSummaries(plan: ExperimentPlan, configs: AnalysisConfiguration[], runsOf: Map<string, RunResult[]>, metric: MetricName): ConfigurationSummary[] {
  const networks = new Map(plan.networks.map((n) => [n.name, n]));
  return configs.map((c) => {
    const runs = runsOf.get(c.label) ?? [];
    const byNetwork = c.networks.map((name): NetworkStatistics => {
      const here = runs.filter((r) => r.configuration.network.name === name);
      const values = here.map((r) => measuredValue(r, metric)).filter((v): v is number => v !== null);
      const count = (status: RunResult["status"]) => here.filter((r) => r.status === status).length;
      return { network: name, point: gridPointOf(networks.get(name)!), runs: here.length, ok: count("ok"), failed: count("failed"), incomplete: count("incomplete"), measured: values.length, ...sampleStatistics(values) };
    });
    return { ...c, byNetwork };
  });
}
