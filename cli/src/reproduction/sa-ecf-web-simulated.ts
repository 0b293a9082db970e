/**
 * Seed 004 §6.2.2's web-traffic experiment in virtual time: the same five files, replay server,
 * schedulers and tquic as sa-ecf-web-runs.ts, fetched at once by pagepath-sim's fetch mode
 * (replay/sim/src/fetch_load.rs, pagepath-fetch's command line) over the simulator's model of the
 * two paths. Needs no root. Each run has a seed of its own for the links; the paths drop nothing
 * and delay exactly, so runs differ only where the seed moves ports and connection IDs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SIM_BINARY, incompleteFetch, limitBatchSimulators, requireBinary, simulateInBatch, topologyDocument, type FetchedResponse } from "@pagepath/runner";
import { Progress } from "../progress.js";
import { SA_ECF_WEB, WEB_BYTES, WEB_HOST, WEB_NETWORK, WEB_SCHEDULERS, WEB_TARGETS, addServerSide, classOf, webRecording, webServerArgs, type WebRun } from "./sa-ecf-web-runs.js";

/** The simulator's client address on each path (pagepath-link's topology::client_addr). */
const CLIENT_ADDRESSES = WEB_NETWORK.paths.map((_, i) => `10.10.${i}.2`);
const SERVER_ADDRESS = "10.200.1.1";

/** pagepath-sim's fetch-mode report line (fetch_load.rs). */
interface FetchLine {
  responses: FetchedResponse[];
  failed: string | null;
}

/** `runs` rounds of the three schedulers, `workers` simulations at once. */
export async function simulateSaEcfWeb(work: string, runs: number, workers: number): Promise<WebRun[]> {
  const binary = requireBinary(SIM_BINARY);
  const recording = webRecording(work);
  const topology = join(work, "topology.json");
  writeFileSync(topology, JSON.stringify(topologyDocument(WEB_NETWORK, process.cwd())));
  limitBatchSimulators(workers);
  const progress = new Progress(runs * WEB_SCHEDULERS.length, SA_ECF_WEB);
  const one = async (run: number, k: number): Promise<WebRun> => {
    const s = WEB_SCHEDULERS[k]!;
    const out = join(work, "runs", `${s.name}-${run}`);
    mkdirSync(out, { recursive: true });
    const fetch = ["fetch", "--connect", `${SERVER_ADDRESS}:443`, "--host", WEB_HOST, ...CLIENT_ADDRESSES.flatMap((a) => ["--local", a]), "--multipath", ...WEB_TARGETS];
    const args = ["--topology", topology, "--seed", String(run + 1), "serve", ...webServerArgs(recording, out, s, SERVER_ADDRESS), "--", ...fetch];
    const result = await simulateInBatch<FetchLine>(binary, args, 120_000).then(checked, (e: Error) => ({ streams: null, error: e.message }));
    const done: WebRun = { scheduler: s.name, run, ...result };
    if (done.streams) addServerSide([done], join(out, "streams.jsonl"), CLIENT_ADDRESSES);
    progress.finished(`${s.label} run ${run + 1}`, done.error === null, done.error ?? "");
    return done;
  };
  // The batch simulators queue what they cannot start yet (limitBatchSimulators), so every run is
  // handed over at once and none waits for a slower neighbour.
  const cells = Array.from({ length: runs }, (_, run) => WEB_SCHEDULERS.map((_, k) => ({ run, k }))).flat();
  const results = await Promise.all(cells.map(({ run, k }) => one(run, k)));
  progress.end();
  return results;
}

/** Every response whole, as pagepath-fetch's own run is checked. */
function checked(line: FetchLine): Pick<WebRun, "streams" | "error"> {
  if (line.failed !== null) return { streams: null, error: line.failed };
  const failed = incompleteFetch(line.responses, WEB_BYTES);
  if (failed !== null) return { streams: null, error: failed };
  return { streams: line.responses.map((r) => ({ className: classOf(r.target).name, completionMs: (r.endUs! - r.startUs!) / 1000, pathBytes: [], rateMbps: null })), error: null };
}
