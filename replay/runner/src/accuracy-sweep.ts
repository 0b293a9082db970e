import { existsSync, readFileSync } from "node:fs";
import { appendRun } from "./sweep/runs-file.js";
import { join } from "node:path";
import { clockTickField, runsFileLines, stackLabel, type Client, type NetworkConfig, type PathConfig, type RunConfiguration, type RunResult } from "@pagepath/results";
import { runReplay, siteName } from "./run-replay.js";
import { runSimulation } from "./simulate.js";
import { networkSpec, networkUp, topologyDown, type Topology } from "./topology.js";

/** One path of a network condition: its rate both ways and its RTT. */
export interface ConditionPath {
  rateMbit: number;
  rttMs: number;
}

/**
 * One network condition of an accuracy sweep: its first path, and any further paths for multipath
 * transports (single-path ones use the first alone).
 */
export interface Condition extends ConditionPath {
  morePaths?: ConditionPath[];
}

const pathName = (p: ConditionPath) => `${p.rateMbit}mbit-${p.rttMs}ms`;
/** "25mbit-20ms", or "25mbit-20ms_5mbit-100ms" with a second path (a network name has no "+"). */
export const conditionName = (c: Condition) => [c, ...(c.morePaths ?? [])].map(pathName).join("_");

/** Each path as the link emulator takes it, its bottleneck buffer one bandwidth-delay product (at least 16 packets). */
function conditionPaths(c: Condition): PathConfig[] {
  return [c, ...(c.morePaths ?? [])].map((p) => {
    const { queuePackets } = networkSpec("", { paths: 1, rateMbit: p.rateMbit, rttMs: p.rttMs, loss: 0 });
    return { upMbps: p.rateMbit, downMbps: p.rateMbit, rttMs: p.rttMs, loss: 0, queue: { discipline: "droptail", packets: queuePackets } };
  });
}

export interface AccuracySweep {
  graphs: string[];
  conditions: Condition[];
  runs: number;
  /**
   * The emulated browser's configurations, one per protocol compared; Chromium gets each without the
   * emulation settings.
   */
  configurations: Omit<RunConfiguration, "network">[];
  /** The simulator's clock tick, µs, for its runs over TCP and MPTCP; its default when absent. */
  clockTickUs?: number;
  timeoutMs: number;
  seed: number;
  /**
   * Which clients run (default both). Chromium's runs do not depend on the model, so a long sweep
   * can gather them first and the emulated browser's later, after each change to the model.
   */
  clients?: SweepItem["client"][];
  /** Folder of runs.jsonl (appended as runs finish, so a sweep resumes) and the servers' logs. */
  out: string;
  /**
   * Loads at once, each worker in a topology of its own (default 1). Worth it only where the links,
   * not the machine, bound a load: two Chromiums at once share its cores and computation.
   */
  workers?: number;
  /** Epoch ms after which no load starts (those under way finish); the same sweep resumes the rest. */
  stopAt?: number;
}

export interface SweepItem {
  graph: string;
  condition: Condition;
  configuration: Omit<RunConfiguration, "network">;
  client: Client;
  run: number;
}

export interface SweepCallbacks {
  starting(item: SweepItem): void;
  finished(item: SweepItem, result: RunResult | null, error: string | null): void;
}

/** One cell of the sweep's grid: a site under one condition over one stack (stackLabel). */
export const cellKey = (site: string, condition: string, stack: string) => `${site}|${condition}|${stack}`;
const key = (site: string, condition: string, stack: string, client: string, run: number) => `${cellKey(site, condition, stack)}|${client}|${run}`;

const warnedTorn = new Set<string>();

/**
 * Runs already in runs.jsonl, by site, condition, stack, client and run. A last line without its
 * newline is what a crash mid-write leaves: it is skipped, `warn` told once a file, and its run
 * done again (appendRun cuts it off before the next line goes in). Any other bad line throws,
 * naming the file and line.
 */
export function finishedRuns(out: string, warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): Map<string, RunResult> {
  const file = join(out, "runs.jsonl");
  const done = new Map<string, RunResult>();
  if (!existsSync(file)) return done;
  const { lines, tornLine } = runsFileLines(readFileSync(file, "utf8"));
  if (tornLine !== null && !warnedTorn.has(file)) {
    warnedTorn.add(file);
    warn(`${file}: line ${tornLine} is incomplete (no newline at its end: the sweep stopped while writing it); skipped, so its run is done again`);
  }
  for (const { n, text } of lines) {
    let r: RunResult;
    try {
      r = JSON.parse(text) as RunResult;
    } catch (e) {
      throw new Error(`${file}: line ${n}: not JSON (${(e as Error).message})`);
    }
    done.set(key(r.site.name, r.configuration.network.name, stackLabel(r.configuration), r.client, r.run), r);
  }
  return done;
}

/**
 * Both clients, `runs` times each, on every graph under every condition, through one topology per
 * condition and worker (workers take the condition's loads in turn from one queue); Chromium and
 * the emulated browser alternate so that drift in the machine's speed touches both. A failing run
 * is reported and the sweep goes on.
 */
export async function runAccuracySweep(s: AccuracySweep, on: SweepCallbacks): Promise<{ left: number }> {
  const done = finishedRuns(s.out);
  const stopped = () => s.stopAt !== undefined && Date.now() >= s.stopAt;
  let left = 0;
  const file = join(s.out, "runs.jsonl");
  for (const [ci, condition] of s.conditions.entries()) {
    const name = conditionName(condition);
    const items: SweepItem[] = [];
    for (const graph of s.graphs) {
      for (const configuration of s.configurations) {
        for (let run = 0; run < s.runs; run++) {
          const order: SweepItem["client"][] = run % 2 === 0 ? ["chromium", "emulated", "simulated"] : ["emulated", "chromium", "simulated"];
          for (const client of order.filter((c) => s.clients?.includes(c) ?? true)) {
            if (!done.has(key(siteName(graph), name, stackLabel(configuration), client, run))) items.push({ graph, condition, configuration, client, run });
          }
        }
      }
    }
    if (items.length === 0) continue;
    if (stopped()) {
      left += items.length;
      continue;
    }
    const network = { name, paths: conditionPaths(condition) };
    // Simulated runs need no topology: a condition that has only those brings none up.
    const lanes = items.some((i) => i.client !== "simulated") ? Math.max(1, Math.min(s.workers ?? 1, items.length)) : 0;
    const nets = Array.from({ length: lanes }, (_, w) => `acc${process.pid % 10_000}c${ci}w${w}`);
    const topologies: Topology[] = [];
    try {
      for (const [w, net] of nets.entries()) topologies.push(await networkUp(net, network, s.seed + ci + 1000 * w, process.cwd()));
      let next = 0;
      const worker = async (topology: Topology | null) => {
        while (next < items.length && !stopped()) await runItem(s, items[next++]!, network, topology, file, on);
      };
      await Promise.all(topologies.length === 0 ? [worker(null)] : topologies.map(worker));
      left += items.length - next;
    } finally {
      for (const net of nets) await topologyDown(net);
    }
  }
  return { left };
}

async function runItem(s: AccuracySweep, item: SweepItem, network: NetworkConfig, topology: Topology | null, file: string, on: SweepCallbacks): Promise<void> {
  on.starting(item);
  const site = siteName(item.graph);
  const name = network.name;
  const model = item.client !== "chromium";
  const run = {
    graphFile: item.graph,
    configuration: { ...item.configuration, emulation: model ? item.configuration.emulation : null, connectionsPerOrigin: model ? item.configuration.connectionsPerOrigin : null },
    seed: s.seed + item.run,
    timeoutMs: s.timeoutMs,
    serverOut: join(s.out, "servers", `${site}-${name}-${stackLabel(item.configuration).replace("/", "-")}-${item.client}-${item.run}`),
    resultFile: file,
    experiment: "accuracy",
    run: item.run,
  };
  try {
    const simulated = { ...run, configuration: { ...run.configuration, ...clockTickField(run.configuration.transport, s.clockTickUs) } };
    const result = item.client === "simulated" ? (await runSimulation({ ...simulated, network })).result : await runReplay({ ...run, client: item.client, topology: topology! });
    appendRun(file, result);
    on.finished(item, result, result.status === "ok" ? null : result.error);
  } catch (e) {
    on.finished(item, null, (e as Error).message);
  }
}
