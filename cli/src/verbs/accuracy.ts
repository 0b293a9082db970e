import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ACCURACY_SAMPLES_SCHEMA_VERSION, readAccuracySamplesFile, stackLabel, type AccuracySamples, type RunResult } from "@pagepath/results";
import { abandonRuns, cellKey, MAX_CONCURRENCY, parseDuration, conditionName, finishedRuns, requireRoot, runAccuracySweep, type Condition, type ConditionPath, type SweepItem } from "@pagepath/runner";
import { corpusSites } from "../corpus-sites.js";
import { Progress } from "../progress.js";
import { stopSweepOnSignal } from "../sweep-interrupt.js";
import { timestamp } from "../timestamp.js";
import { accuracySample } from "./accuracy-report.js";
import { lanternPredictions } from "./accuracy-lantern.js";
import { mergeAccuracySamples } from "./accuracy-merge.js";
import { writeAccuracy } from "./accuracy-output.js";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { clockTickOption, refuseTransport, RUN_OPTIONS, RUN_OPTIONS_HELP, runSettings } from "./replay-options.js";

/** Bandwidths from 1 to 100 Mbit/s against RTTs from 20 to 200 ms. */
const DEFAULT_CONDITIONS = "1:100,2:200,5:50,10:200,25:20,100:80";

export const accuracyVerb: Verb = {
  name: "accuracy",
  summary: "measure how well the emulated browser predicts Chromium's load, DCL, FCP and LCP times across sites and networks",
  usage: `
usage: pagepath accuracy [--data DIR] [--sites A,B,...] [--conditions MBIT:RTT[+MBIT:RTT],...] [--protocols P[/T],...] [--runs N] [--out DIR] [run options]

Replays every corpus site under every network condition with both clients, Chromium and the
emulated browser, --runs times each, through the same topology, and reports, per metric (load,
DOMContentLoaded, first and largest contentful paint) and protocol, the emulated browser's error
against Chromium's median per site and condition: the median and p90 absolute percentage error, the
signed error per cell, the rank correlation across cells, and beside them Chromium's own run-to-run
spread (each Chromium run against the median of the cell's others). Runs are appended to
OUT/runs.jsonl as they finish, so running it again with the same --out resumes (a last line a
crash left half-written is skipped with a warning and its run done again). Writes
OUT/samples.json (each run as the report counts it, and Lantern's predictions: what --merge
reads; docs/formats/accuracy-samples.md), OUT/accuracy.json (docs/formats/accuracy.md), OUT/accuracy.md (the tables, the command and its scale) and two plots per metric and protocol, OUT/accuracy-METRIC-PROTOCOL.svg (emulated
against Chromium) and OUT/accuracy-by-condition-METRIC-PROTOCOL.svg. Needs root.
  --data DIR          the corpus (default corpus-data; its graphs/ and recordings/)
  --sites A,B         only these sites (graph names)
  --conditions LIST   rate in Mbit/s and RTT in ms per condition (default ${DEFAULT_CONDITIONS});
                      "25:20+5:100" adds a second path, used by multipath transports (h2/mptcp)
  --protocols LIST    compare on each of these protocols (h1, h2, h3, ...; default: --protocol's);
                      each gets its own transport (tcp, or quic for h3) unless --transport is given,
                      or names one: h2/mptcp is HTTP/2 over MPTCP, Chromium through mptcpize
  --runs N            runs of each client per site, condition and protocol (default 3)
  --out DIR           (default accuracy/<time>); an existing one is taken up where it stopped
  --resume            take up the latest sweep in accuracy/ (the newest folder with a runs.jsonl)
  --clients LIST      run only these clients (default chromium,emulated); Chromium's runs do not
                      depend on the model, so a long sweep can gather them first (--clients chromium)
                      and the emulated browser's after each change to it, in the same --out;
                      simulated adds the simulator's runs (as --simulated does)
  --simulated         also load each site in virtual time with pagepath simulate (QUIC stacks only)
                      and report the simulator's error against the real emulated replay and
                      against Chromium (the simulator's calibration, docs/simulator.md); with
                      --clients simulated alone it needs no root
  --clock-tick-us N   the simulator's clock tick over TCP and MPTCP, in µs (default 1000; see
                      pagepath simulate --help)
  --workers N         loads at once, each in a topology of its own (default 1). Only where the
                      links bound the loads (a few Mbit/s): two Chromiums at once share this
                      machine's cores, so at fast links they slow each other's computation
  --stop-after D      start no load once D has passed (e.g. 90m, 2h, 1h30m): the loads under way
                      finish, the report covers the runs done, and the same command resumes
  --merge A,B,...     run nothing: report the sweeps whose samples.json files (or folders holding
                      one) are listed, as one sweep, into --out; sweeps made on other machines
                      or at other times, each of different cells (a cell's runs must all have
                      replayed one graph)
  --lantern           also run Lighthouse's Lantern on each site's recording under each condition
                      and print its FCP, LCP and Interactive error beside the emulated browser's
                      (OUT/lantern.json; docs/lantern.md)${RUN_OPTIONS_HELP}
`,
  paths: { options: ["data", "out"] },
  options: {
    ...RUN_OPTIONS,
    "wait-for": { type: "string", default: "load" },
    timeout: { type: "string", default: "180" },
    data: { type: "string", default: "corpus-data" },
    sites: { type: "string" },
    conditions: { type: "string", default: DEFAULT_CONDITIONS },
    runs: { type: "string", default: "3" },
    out: { type: "string" },
    resume: { type: "boolean", default: false },
    protocols: { type: "string" },
    lantern: { type: "boolean", default: false },
    simulated: { type: "boolean", default: false },
    "clock-tick-us": { type: "string" },
    clients: { type: "string", default: "chromium,emulated" },
    workers: { type: "string", default: "1" },
    merge: { type: "string" },
    "stop-after": { type: "string" },
  },
  async run(values) {
    if (values.merge !== undefined) return mergeSweeps(values);
    const protocols = values.protocols === undefined ? [String(values.protocol)] : String(values.protocols).split(",").filter(Boolean);
    if (protocols.length === 0) throw new UsageError(`--protocols "${values.protocols}": expected a list such as h1,h2,h3`);
    const clients = parseClients(String(values.clients));
    if (values.simulated && !clients.includes("simulated")) clients.push("simulated");
    // The simulator alone takes pagepath's schedulers for MPTCP; beside a real replay, the kernel's.
    const checkedFor = clients.every((c) => c === "simulated") ? "simulated" : "emulated";
    const all = protocols.map((stack) => {
      const [protocol, transport, extra] = stack.split("/");
      if (extra !== undefined || !protocol) throw new UsageError(`--protocols ${stack}: expected PROTOCOL or PROTOCOL/TRANSPORT, e.g. h2/mptcp`);
      try {
        return runSettings({ ...values, protocol, ...(transport === undefined ? {} : { transport }) }, checkedFor);
      } catch (e) {
        throw values.protocols !== undefined && e instanceof UsageError ? new UsageError(`--protocols ${stack}: ${e.message}`) : e;
      }
    });
    const settings = all[0]!;
    const configurations = all.map((s) => s.configuration);
    const conditions = parseConditions(String(values.conditions));
    const clockTickUs = clockTickOption(values, clients, configurations.map((c) => c.transport));
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new UsageError(`--runs "${values.runs}": expected a whole number from 1 to 100`);
    if (clients.includes("chromium")) for (const s of all) refuseTransport("chromium", s.configuration.transport, "accuracy compares the emulated browser with Chromium, so use --transport quic, or leave Chromium out with --clients emulated,simulated");
    const workers = Number(values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > MAX_CONCURRENCY) throw new UsageError(`--workers "${values.workers}": expected a whole number from 1 to ${MAX_CONCURRENCY}`);
    const stopAfterMs = values["stop-after"] === undefined ? null : parseDuration(String(values["stop-after"]));
    if (values["stop-after"] !== undefined && !(stopAfterMs! > 0)) throw new UsageError(`--stop-after "${values["stop-after"]}": expected a duration such as 90m, 2h or 1h30m`);
    if (values.resume && values.out !== undefined) throw new UsageError("--resume takes up the latest folder in accuracy/; --out DIR already resumes DIR: give one of them");
    const out = resolve(String(values.out ?? (values.resume ? latestSweep("accuracy") : join("accuracy", timestamp()))));
    if (values.resume) process.stderr.write(`resuming ${shownPath(out)}\n`);
    const { graphsDir, sites: wanted } = corpusSites(String(values.data), values.sites === undefined ? undefined : String(values.sites).split(",").filter(Boolean));
    if (clients.some((c) => c !== "simulated")) requireRoot();
    mkdirSync(out, { recursive: true });
    const total = wanted.length * conditions.length * configurations.length * runs * clients.length;
    // Runs of other sites, conditions or protocols in the same folder are not part of this sweep:
    // neither counted as done nor summed up.
    const scope = new Set(wanted.flatMap((s) => conditions.flatMap((c) => configurations.map((k) => cellKey(s, conditionName(c), stackLabel(k))))));
    const inScope = (r: RunResult) => scope.has(cellKey(r.site.name, r.configuration.network.name, stackLabel(r.configuration))) && r.run < runs;
    const toRun = (r: RunResult) => inScope(r) && clients.includes(r.client);
    const already = [...finishedRuns(out).values()].filter(toRun).length;
    const progress = new Progress(total - already, "accuracy");
    const failures: string[] = [];
    process.stderr.write(`${wanted.length} sites x ${conditions.length} conditions x ${configurations.length} protocols x ${runs} runs x ${clients.length} client${clients.length > 1 ? "s" : ""} = ${total} loads${already ? `, ${already} already in ${out}` : ""}\n`);
    const label = (i: SweepItem) => `${i.graph.replace(/^.*\//, "").replace(/\.json$/, "")} ${conditionName(i.condition)} ${stackLabel(i.configuration)} ${i.client} #${i.run}`;
    // The condition's topology goes when the process exits (downAtProcessEnd): only the runs' processes are killed here.
    const forgetSignals = stopSweepOnSignal(`stopping: the load under way is dropped; run the same command with --out ${shownPath(out)} to resume`, () => abandonRuns([]));
    let underWay = 0;
    const { left } = await runAccuracySweep(
      { graphs: wanted.map((s) => join(graphsDir, `${s}.json`)), conditions, runs, configurations, clockTickUs, timeoutMs: settings.timeoutMs, seed: settings.seed, clients, out, workers, ...(stopAfterMs === null ? {} : { stopAt: Date.now() + stopAfterMs }) },
      {
        starting: (item) => {
          if (workers > 1) progress.running(++underWay);
          progress.working(label(item));
        },
        finished: (item, result, error) => {
          if (workers > 1) progress.running(--underWay);
          const load = result?.metrics.loadMs;
          progress.finished(label(item), error === null, error ?? (load == null ? "" : `load ${load.toFixed(0)} ms`));
          if (error !== null) failures.push(`${label(item)}: ${error}`);
        },
      },
    );
    forgetSignals();
    progress.end();
    if (left > 0) process.stderr.write(`--stop-after ${values["stop-after"]} passed with ${left} loads left; the same command resumes them\n`);
    const runsDone = [...finishedRuns(out).values()].filter(inScope);
    const predictions = values.lantern ? await lanternPredictions({ data: String(values.data), sites: wanted, conditions }) : null;
    const doc: AccuracySamples = {
      schemaVersion: ACCURACY_SAMPLES_SCHEMA_VERSION,
      kind: "pagepath-accuracy-samples",
      conditions,
      runs,
      configurations,
      samples: runsDone.map((r) => ({ ...accuracySample(r), run: r.run, graphSha256: r.site.graphSha256, ...(r.site.recordingSha256 ? { recordingSha256: r.site.recordingSha256 } : {}) })),
      lantern: predictions && { engine: predictions.engine, cells: predictions.cells },
    };
    const loadsCompared = writeAccuracy(out, doc, wanted, predictions?.warnings ?? {}, failures);
    // Missing load times fail only where both clients were asked to run and had their time (a cell
    // --stop-after cut is owed, not failed).
    const compared = clients.includes("chromium") && clients.includes("emulated") && left === 0;
    return failures.length === 0 && (!compared || loadsCompared) ? 0 : 1;
  },
};

function parseClients(text: string): SweepItem["client"][] {
  const clients = [...new Set(text.split(",").filter(Boolean))];
  const bad = clients.find((c) => c !== "chromium" && c !== "emulated" && c !== "simulated");
  if (bad !== undefined || clients.length === 0) throw new UsageError(`--clients "${text}": expected chromium, emulated, simulated or several, e.g. chromium,emulated`);
  return clients as SweepItem["client"][];
}

function parseConditions(text: string): Condition[] {
  return text.split(",").map((c) => {
    const paths = c.trim().split("+").map((p): ConditionPath => {
      const m = /^([\d.]+):([\d.]+)$/.exec(p);
      const rateMbit = Number(m?.[1]);
      const rttMs = Number(m?.[2]);
      if (!m || !(rateMbit > 0) || !(rttMs >= 0)) throw new UsageError(`--conditions: "${c}" is not RATE_MBIT:RTT_MS, e.g. 10:40, or paths joined by +, e.g. 25:20+5:100`);
      return { rateMbit, rttMs };
    });
    const [first, ...more] = paths;
    return more.length === 0 ? first! : { ...first!, morePaths: more };
  });
}

/** The newest sweep folder under `dir` (their names are start times, which sort as they happened) that holds a runs file. */
function latestSweep(dir: string): string {
  const found = existsSync(dir) ? readdirSync(dir).filter((d) => existsSync(join(dir, d, "runs.jsonl"))).sort().at(-1) : undefined;
  if (!found) throw new UsageError(`--resume: no earlier sweep in ${dir}/ (a folder holding runs.jsonl) to take up`);
  return join(dir, found);
}

/** --merge: the samples of earlier sweeps reported together, nothing run. */
function mergeSweeps(values: Record<string, unknown>): number {
  for (const o of ["sites", "protocols", "resume", "lantern", "simulated"]) {
    if (values[o] !== undefined && values[o] !== false) throw new UsageError(`--merge reports sweeps already made: --${o} has no meaning with it`);
  }
  if (values.out === undefined) throw new UsageError("--merge needs --out DIR, the folder the merged report goes to");
  const files = String(values.merge).split(",").filter(Boolean).map((f) => (existsSync(f) && statSync(f).isDirectory() ? join(f, "samples.json") : f));
  if (files.length === 0) throw new UsageError(`--merge "${values.merge}": expected samples.json files or sweep folders, separated by commas`);
  const docs = files.map((file) => {
    if (!existsSync(file)) throw new UsageError(`--merge: ${file} does not exist (a sweep folder holds samples.json once its report is written)`);
    return { file: shownPath(file), doc: readAccuracySamplesFile(file) };
  });
  const doc = mergeAccuracySamples(docs);
  const out = resolve(String(values.out));
  mkdirSync(out, { recursive: true });
  const sites = [...new Set(doc.samples.map((s) => s.site))].sort();
  process.stderr.write(`${docs.length} sweeps, ${doc.samples.length} runs of ${sites.length} sites\n`);
  return writeAccuracy(out, doc, sites, {}, []) ? 0 : 1;
}
