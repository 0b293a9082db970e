import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkReplayInputs, networkSpec, readTopology, requireRoot, runReplay, topologyDown, topologyUp, type NetworkSpec, type Topology } from "@pagepath/runner";
import type { RunResult } from "@pagepath/results";
import { timestamp } from "../timestamp.js";
import { numberOption, parseOptions, UsageError } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { RUN_OPTIONS, RUN_OPTIONS_HELP, runSettings } from "./replay-options.js";
import { replaySummary } from "./replay-summary.js";

export const RUN_USAGE = `
usage: pagepath replay GRAPH.json --client emulated|chromium [--net NAME | network] [options]

Replays a graph's page from replay servers through an emulated network and writes a run result
(docs/formats/run-result.md): with --client emulated, PCP's emulated browser loads the graph over
real connections; with --client chromium, Debian's Chromium loads the page, cold. Needs root.
  --net NAME              a topology that is up (pagepath net up --name NAME ...); or one is
                          brought up for this run from:
  --paths N --rate-mbit R --rtt-ms T [--loss P] [--queue TYPE[:LIMIT]] [--backup I]
                          (default 1 path, 10 Mbit/s, 40 ms, no loss, a drop-tail queue of one
                          bandwidth-delay product, at least 16 packets; --queue as pagepath net up
                          takes it: droptail or red, LIMIT packets=N, bytes=N or bdp=X (the old
                          --queue-packets Q still works); --backup keeps path I, from
                          0, as a backup: MPTCP's endpoint flag, and pagepath's multipath QUIC
                          schedulers use it only while no other path is usable)
  --recording DIR         the recording to serve (default: the one the graph was built from)
  --out FILE              the run result (default runs/<graph>-<client>-<time>.json); the servers'
                          logs go to the folder beside it, FILE without .json plus .servers
  --qlog                  keep the servers' qlog of each QUIC connection there, in qlog/
  --keep-recording DIR    Chromium only: keep the recording the client made of its load (trace,
                          archive, manifest: docs/formats/recording.md), to build a graph of what
                          Chromium did over the emulated link (pagepath build DIR)${RUN_OPTIONS_HELP}
Then: pagepath trace FILE (a Chrome trace for Perfetto); pagepath view runs/ (or the folder of
--out) lists the run results there and opens each on the timeline of the graph it replayed.
`;

/** The options of a network brought up (or simulated) for one run. */
export const NETWORK_OPTIONS = {
  paths: { type: "string" },
  "rate-mbit": { type: "string" },
  "rtt-ms": { type: "string" },
  loss: { type: "string" },
  queue: { type: "string" },
  "queue-packets": { type: "string" },
  backup: { type: "string" },
} as const;

export const REPLAY_OPTIONS = {
  ...RUN_OPTIONS,
  client: { type: "string" },
  net: { type: "string" },
  ...NETWORK_OPTIONS,
  recording: { type: "string" },
  out: { type: "string" },
  qlog: { type: "boolean", default: false },
  "keep-recording": { type: "string" },
} as const;

/** The network to bring up from the options: the same link on every path. */
export function optionsNetwork(values: Record<string, unknown>, name: string): NetworkSpec {
  const paths = numberOption(values, "paths", 1, 1, 8);
  const backup = values.backup === undefined ? {} : { backup: numberOption(values, "backup", 0, 0, paths - 1) };
  if (backup.backup !== undefined && !Number.isInteger(backup.backup)) throw new UsageError(`--backup "${values.backup}": expected a path index, 0 to ${paths - 1}`);
  if (backup.backup !== undefined && paths < 2) throw new UsageError("--backup: a backup path needs --paths 2 or more, so that another path carries the traffic");
  const rateMbit = numberOption(values, "rate-mbit", 10, 0.01, 10_000);
  const rttMs = numberOption(values, "rtt-ms", 40, 0, 10_000);
  return networkSpec(name, { paths, ...backup, rateMbit, rttMs, loss: numberOption(values, "loss", 0, 0, 1), ...queueOption(values, rateMbit, rttMs) });
}

/**
 * `--queue TYPE[:packets=N|bytes=N|bdp=X]`, as pagepath net up spells a queue (the types a run
 * result records: droptail, red); the older `--queue-packets Q` still works for a release.
 */
function queueOption(values: Record<string, unknown>, rateMbit: number, rttMs: number): { queuePackets?: number; queueDiscipline?: "droptail" | "red" } {
  if (values["queue-packets"] !== undefined) {
    if (values.queue !== undefined) throw new UsageError("--queue-packets is the old spelling of --queue droptail:packets=N: give one of them");
    process.stderr.write(`pagepath: --queue-packets ${values["queue-packets"]} is now --queue droptail:packets=${values["queue-packets"]}; the old spelling works until the next release\n`);
    return { queuePackets: numberOption(values, "queue-packets", 0, 1, 1_000_000) };
  }
  if (values.queue === undefined) return {};
  const text = String(values.queue);
  const [type, limit, extra] = text.split(/[:,]/);
  if (type !== "droptail" && type !== "red") throw new UsageError(`--queue "${text}": the type must be droptail or red (what a run result records; pagepath net up has more)`);
  if (extra !== undefined) throw new UsageError(`--queue "${text}": give one limit, packets=N, bytes=N or bdp=X`);
  if (limit === undefined) return { queueDiscipline: type };
  const m = /^(packets|bytes|bdp)=([\d.]+)$/.exec(limit);
  const n = m ? Number(m[2]) : NaN;
  if (!m || !(n > 0)) throw new UsageError(`--queue "${text}": expected a limit packets=N, bytes=N or bdp=X with a positive number, not "${limit}"`);
  const packets = m[1] === "packets" ? n : m[1] === "bytes" ? n / 1500 : (n * rateMbit * 1e6 * (rttMs / 1000)) / 8 / 1500;
  return { queueDiscipline: type, queuePackets: Math.max(1, Math.ceil(packets)) };
}

export async function replayRun(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, REPLAY_OPTIONS, { options: ["recording", "out", "keep-recording"], positionals: true }) as ReturnType<typeof parseArgs<{ options: typeof REPLAY_OPTIONS; allowPositionals: true }>>;
  if (positionals.length !== 1) throw new UsageError("expected one GRAPH.json");
  const client = values.client;
  if (client !== "emulated" && client !== "chromium") throw new UsageError(`--client "${client ?? ""}": expected emulated or chromium`);
  const settings = runSettings(values, client);
  if (client === "chromium" && settings.configuration.http1 && settings.configuration.http1 !== "1.1") {
    throw new UsageError(`--protocol ${values.protocol}: Chromium speaks HTTP/1.1 with keep-alive only; use h1`);
  }
  if (values["keep-recording"] !== undefined && client !== "chromium") throw new UsageError(`--keep-recording: only Chromium makes a recording of its load; the emulated browser's run result holds its node timings`);
  const graphFile = positionals[0]!;
  const out = resolve(values.out ?? join("runs", `${basename(graphFile, ".json")}-${client}-${timestamp()}.json`));
  checkReplayInputs(graphFile, values.recording);
  requireRoot();
  const own = values.net === undefined ? `run${process.pid % 100_000}` : null;
  let topology: Topology;
  if (own) {
    const spec = optionsNetwork(values, `${values["rate-mbit"] ?? 10}mbit-${values["rtt-ms"] ?? 40}ms`);
    process.stderr.write(`bringing up ${spec.paths} path${spec.paths > 1 ? "s" : ""} of ${spec.rateMbit} Mbit/s, ${spec.rttMs} ms RTT ...\n`);
    topology = await topologyUp(own, spec, settings.seed);
  } else {
    topology = readTopology(values.net!);
  }
  let result: RunResult;
  try {
    process.stderr.write(`replaying ${shownPath(graphFile)} with ${client === "emulated" ? "the emulated browser" : "Chromium"} over ${settings.configuration.protocol}/${settings.configuration.transport} ...\n`);
    result = await runReplay({
      graphFile,
      recording: values.recording,
      client,
      configuration: settings.configuration,
      topology,
      seed: settings.seed,
      timeoutMs: settings.timeoutMs,
      serverOut: out.replace(/\.json$/, "") + ".servers",
      qlog: values.qlog,
      keepRecording: values["keep-recording"],
      resultFile: out,
    });
  } finally {
    if (own) await topologyDown(own);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 1) + "\n");
  process.stdout.write(replaySummary(result, out));
  return result.status === "ok" ? 0 : 1;
}
