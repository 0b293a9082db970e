/**
 * Seed 000's SRPT-ECF experiment as a page load: the page whose origin's responses are the
 * messages, loaded by the emulated browser (in real time or simulated) over HTTP/3 and multipath
 * QUIC on the seed's two paths, once per scheduler, the replay servers releasing each response
 * when its request comes (no recorded server delay): the same messages with the page's
 * dependencies deciding when each is asked for.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { prepareExperiment, requireRoot } from "@pagepath/runner";
import { readExperiment, type ExperimentPlan, type RunResult } from "@pagepath/results";
import { sweepPending } from "./run.js";
import { noCompletions, SEED_PATHS, SEED_SCHEDULERS, type Completions, type PageMessages } from "./srpt-ecf-messages.js";

export const SRPT_ECF = "srpt-ecf";

export function srptEcfPlan(page: PageMessages, graph: string, client: "emulated" | "simulated", runs: number): ExperimentPlan {
  return {
    schemaVersion: 1,
    kind: "pagepath-experiment-plan",
    name: SRPT_ECF,
    description: `${page.site}'s page over seed 000 §4.7's two paths, HTTP/3 over multipath QUIC, one cell per scheduler (seed 000 Figs 4.11-4.12)`,
    client,
    baseSeed: 1,
    runs,
    sites: [{ name: page.site, graph }],
    networks: [
      {
        name: "seed000-4.7",
        // Queues of 16 packets (pagepath's least): the seed's model has none, and deeper ones
        // would add seconds of queueing at these rates.
        paths: SEED_PATHS.map((p) => ({ upMbps: p.rateMbit, downMbps: p.rateMbit, rttMs: p.rttMs, loss: 0, queue: { discipline: "droptail" as const, packets: 64 } })),
      },
    ],
    protocols: ["h3"],
    transports: ["mpquic"],
    serverModels: ["out-of-order"],
    priorities: ["none"],
    chunkSizeBytes: 16384,
    connectionsPerOrigin: { h3: 1 },
    metric: "load",
    // A whole page at about 1.8 Mbit/s takes minutes; in virtual time that costs no more.
    timeoutMs: 900_000,
    scheduler: { mpquic: SEED_SCHEDULERS.map((s) => ({ name: s.name })) },
  };
}

/** Runs what of the plan is not done yet (WORK/plans, WORK/results) and returns its runs. */
export async function runSrptEcfLoads(page: PageMessages, o: { data: string; work: string; client: "emulated" | "simulated"; runs: number; workers: number }): Promise<RunResult[]> {
  if (o.client === "emulated") requireRoot();
  const plansDir = join(resolve(o.work), "plans");
  mkdirSync(plansDir, { recursive: true });
  const graph = relative(plansDir, resolve(o.data, "graphs", `${page.site}.json`));
  const file = join(plansDir, `${SRPT_ECF}.plan.json`);
  writeFileSync(file, JSON.stringify(srptEcfPlan(page, graph, o.client, o.runs), null, 2) + "\n");
  const x = prepareExperiment(file, join(resolve(o.work), "results", SRPT_ECF));
  await sweepPending(x, o.workers);
  return readExperiment(x.planFile).runs;
}

/**
 * Per scheduler, each message's completion time (ms from its request to its last byte) and
 * interval, over the ok runs: the requests for the origin's URLs.
 */
export function loadCompletions(runs: RunResult[], page: PageMessages): Map<string, Completions> {
  const urls = new Set(page.messages.map((m) => m.url));
  const out = new Map<string, Completions>();
  for (const s of SEED_SCHEDULERS) out.set(s.name, noCompletions());
  for (const r of runs) {
    const entry = out.get(r.configuration.scheduler?.name ?? "");
    if (!entry) continue;
    if (r.status !== "ok") {
      entry.failed++;
      continue;
    }
    for (const q of r.requests ?? []) {
      if (!urls.has(q.url) || q.endMs === null) continue;
      entry.urls.push(q.url);
      entry.completionMs.push(q.endMs - q.startMs);
      entry.intervals.push([q.startMs, q.endMs]);
    }
  }
  return out;
}
