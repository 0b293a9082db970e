import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunConfiguration, RunResult } from "@pagepath/results";
import { runReplay, siteName } from "./run-replay.js";
import { networkSpec, topologyDown, topologyUp } from "./topology.js";

/** One network condition of an accuracy sweep. */
export interface Condition {
  rateMbit: number;
  rttMs: number;
}

export const conditionName = (c: Condition) => `${c.rateMbit}mbit-${c.rttMs}ms`;

export interface AccuracySweep {
  graphs: string[];
  conditions: Condition[];
  runs: number;
  /**
   * The emulated browser's configurations, one per protocol compared; Chromium gets each without the
   * emulation settings.
   */
  configurations: Omit<RunConfiguration, "network">[];
  timeoutMs: number;
  seed: number;
  /** Folder of runs.jsonl (appended as runs finish, so a sweep resumes) and the servers' logs. */
  out: string;
}

export interface SweepItem {
  graph: string;
  condition: Condition;
  configuration: Omit<RunConfiguration, "network">;
  client: "emulated" | "chromium";
  run: number;
}

export interface SweepCallbacks {
  starting(item: SweepItem): void;
  finished(item: SweepItem, result: RunResult | null, error: string | null): void;
}

/** One cell of the sweep's grid: a site under one condition over one protocol. */
export const cellKey = (site: string, condition: string, protocol: string) => `${site}|${condition}|${protocol}`;
const key = (site: string, condition: string, protocol: string, client: string, run: number) => `${cellKey(site, condition, protocol)}|${client}|${run}`;

/** Runs already in runs.jsonl, by site, condition, protocol, client and run. */
export function finishedRuns(out: string): Map<string, RunResult> {
  const file = join(out, "runs.jsonl");
  const done = new Map<string, RunResult>();
  if (!existsSync(file)) return done;
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const r = JSON.parse(line) as RunResult;
    done.set(key(r.site.name, r.configuration.network.name, r.configuration.protocol, r.client, r.run), r);
  }
  return done;
}

/**
 * Both clients, `runs` times each, on every graph under every condition, through one topology per
 * condition; Chromium and the emulated browser alternate so that drift in the machine's speed
 * touches both. A failing run is reported and the sweep goes on.
 */
export async function runAccuracySweep(s: AccuracySweep, on: SweepCallbacks): Promise<void> {
  const done = finishedRuns(s.out);
  const file = join(s.out, "runs.jsonl");
  for (const [ci, condition] of s.conditions.entries()) {
    const name = conditionName(condition);
    const items: SweepItem[] = [];
    for (const graph of s.graphs) {
      for (const configuration of s.configurations) {
        for (let run = 0; run < s.runs; run++) {
          const order: SweepItem["client"][] = run % 2 === 0 ? ["chromium", "emulated"] : ["emulated", "chromium"];
          for (const client of order) {
            if (!done.has(key(siteName(graph), name, configuration.protocol, client, run))) items.push({ graph, condition, configuration, client, run });
          }
        }
      }
    }
    if (items.length === 0) continue;
    const net = `acc${process.pid % 10_000}c${ci}`;
    const spec = networkSpec(name, { paths: 1, rateMbit: condition.rateMbit, rttMs: condition.rttMs, loss: 0 });
    const topology = await topologyUp(net, spec, s.seed + ci);
    try {
      for (const item of items) {
        on.starting(item);
        const site = siteName(item.graph);
        const resultFile = file;
        try {
          const result = await runReplay({
            graphFile: item.graph,
            client: item.client,
            configuration: { ...item.configuration, emulation: item.client === "emulated" ? item.configuration.emulation : null, connectionsPerOrigin: item.client === "emulated" ? item.configuration.connectionsPerOrigin : null },
            topology,
            seed: s.seed + item.run,
            timeoutMs: s.timeoutMs,
            serverOut: join(s.out, "servers", `${site}-${name}-${item.configuration.protocol}-${item.client}-${item.run}`),
            resultFile,
            experiment: "accuracy",
            run: item.run,
          });
          appendFileSync(file, JSON.stringify(result) + "\n");
          on.finished(item, result, result.status === "ok" ? null : result.error);
        } catch (e) {
          on.finished(item, null, (e as Error).message);
        }
      }
    } finally {
      await topologyDown(net);
    }
  }
}
