import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { shownPath } from "../shown-path.js";
import { analyzeExperiment, readExperiment, runsCsv } from "@pagepath/results";
import { DEFAULT_GRID, THESIS_GRID, THESIS_RTT_JITTER } from "../reproduction/plans.js";
import { writeReport } from "../reproduction/report.js";
import { runReproduction } from "../reproduction/run.js";
import { corpusSites } from "../corpus-sites.js";
import { messagesAlone, pickPage } from "../reproduction/srpt-ecf-messages.js";
import { loadCompletions, runSrptEcfLoads, SRPT_ECF } from "../reproduction/srpt-ecf-loads.js";
import { settingResult, writeSrptEcfReport } from "../reproduction/srpt-ecf-report.js";
import { cellResults, MPQUIC_VS_MPTCP, runMpquicVsMptcp } from "../reproduction/mpquic-vs-mptcp-runs.js";
import { classResults, writeMpquicVsMptcpReport } from "../reproduction/mpquic-vs-mptcp-report.js";
import { SCENARIO_CLASSES, scenarios, SEED_SCENARIOS } from "../reproduction/mpquic-vs-mptcp-scenarios.js";
import { runSaEcfWeb, SA_ECF_WEB } from "../reproduction/sa-ecf-web-runs.js";
import { writeSaEcfWebReport } from "../reproduction/sa-ecf-web-report.js";
import { simulateSaEcfWeb } from "../reproduction/sa-ecf-web-simulated.js";
import { MISMATCHES, MODIFIED_STACK, MODIFIED_STACK_GRID, TABLE_6_1_GRID } from "../reproduction/modified-stack-plans.js";
import { runModifiedStack } from "../reproduction/modified-stack-runs.js";
import { writeModifiedStackReport } from "../reproduction/modified-stack-report.js";

/** The experiments by name: the thesis's three (the default), seed 000's SRPT-ECF, seed 003's large download and seed 004's web workload. */
const THESIS = ["h1-vs-h2", "mptcp-equal-paths", "mptcp-rtt-mismatch"];
const EXPERIMENTS = [...THESIS, SRPT_ECF, MPQUIC_VS_MPTCP, SA_ECF_WEB, MODIFIED_STACK];
/** Runs per scheduler of sa-ecf-web unless --runs says: seed 004 ran 100, the issue asks at least 30. */
const SA_ECF_WEB_RUNS = 30;
/** Scenarios per class of mpquic-vs-mptcp with the emulated client: four classes x 8 downloads of 20 MB each. */
const EMULATED_SCENARIOS = 3;
import { numberOption, UsageError, type Verb } from "../verb.js";
import { DEFAULT_DATA } from "./corpus-build.js";
import { clockTickOption, schedulerOption, transportKnobOptions } from "./replay-options.js";

export const reproduceVerb: Verb = {
  name: "reproduce",
  summary: "run reduced versions of three thesis experiments over the corpus and write a report beside the thesis's findings",
  usage: `
usage: pagepath reproduce [--only NAME,...] [--client emulated|simulated] [--data DIR] [--sites A,B,...] [--runs N]
                          [--grid default|thesis] [--rates MBIT,...] [--rtts MS,...] [--links plain|thesis]
                          [--scheduler NAME] [--congestion NAME] [--tcp-profile linux|thesis] [--clock-tick-us N] [--tail-loss-probes on|off] [--workers N] [--work DIR] [--out DIR]

Runs three experiments of seed 001, reduced, with the emulated browser over the corpus: HTTP/1.1
with 6 connections against HTTP/2 with one over a bandwidth x RTT grid (Figs 4.15-4.16); MPTCP on
two equal paths against single-path TCP (Fig 6.4); and MPTCP with the second path at 5x the RTT
(Fig 6.6). Then writes OUT/README.md: the heatmaps, a table per grid point with significance tests,
and each of the thesis's findings checked against pagepath's, with the likely reason where they
differ. Runs are resumable (WORK/results/<experiment>/); running it again only writes the report.
Needs root, but for the simulated client.
  --only LIST     these experiments (default: the thesis's three): ${EXPERIMENTS.join(", ")};
                  srpt-ecf is seed 000 §4.7 (Figs 4.11-4.12): the responses of the corpus origin
                  with the most images over two paths of 1050 kbit/s 67 ms and 750 kbit/s 151 ms,
                  SRPT-ECF against SA-ECF, FCFS and SRPT with lowest-RTT, as messages alone and as
                  a page load over multipath QUIC (report in OUT/srpt-ecf/); mpquic-vs-mptcp is
                  seed 003 §5.2.3: a 20 MB download over two paths drawn by WSP from Table 5.1 in
                  four classes, each path first in turn, over TCP, MPTCP, QUIC and multipath QUIC:
                  completion time ratios and aggregation benefits (report in OUT/mpquic-vs-mptcp/)
                  sa-ecf-web is seed 004 §6.2.2 (Table 6.8, Fig 6.11): five files of a web page's
                  kinds fetched at once over multipath QUIC on 50 Mbit/s 10 ms and 10 Mbit/s 50 ms,
                  LowRTT, SA-ECF and the adapted SA-ECF under Table 6.8's weights, ${SA_ECF_WEB_RUNS} runs each
                  unless --runs says (simulated: pagepath-sim fetching them as pagepath-fetch
                  does; report in OUT/sa-ecf-web/);
                  modified-stack is seed 001 §6.5 (Figs 6.22, 6.24, Tables 6.1-6.2): the thesis's
                  ladder of multipath changes (MPTCP HTTP/2 RTT, MP QUIC RTT, + preemption, + its
                  Stream Scheduler), each against single-path TCP, on two paths with the second at
                  5x the RTT or 1/5 of the bandwidth; its grid is ${MODIFIED_STACK_GRID.rateMbit.join(",")} Mbit/s x ${MODIFIED_STACK_GRID.rttMs.join(",")} ms, with
                  --grid thesis Table 6.1's ${TABLE_6_1_GRID.rateMbit.join(",")} Mbit/s x ${TABLE_6_1_GRID.rttMs.join(",")} ms (report in
                  OUT/modified-stack/)
  --mismatch LIST modified-stack: rtt, bandwidth or both (default rtt,bandwidth)
  --scenarios N   mpquic-vs-mptcp: scenarios per class (default ${SEED_SCENARIOS}, the seed's, simulated;
                  ${EMULATED_SCENARIOS} emulated); each costs 8 downloads of 20 MB a run
  --client NAME   emulated (default): the emulated browser in real time over the kernel's TCP
                  and MPTCP; simulated: the same browser and servers in virtual time over
                  smoltcp's TCP and MPTCP over it (docs/simulator.md), without root, on every CPU
  --data DIR      the corpus (default ${DEFAULT_DATA})
  --sites A,B     only these corpus sites (default: all)
  --runs N        runs per cell (default 1)
  --grid NAME     default: ${DEFAULT_GRID.rateMbit.join(",")} Mbit/s x ${DEFAULT_GRID.rttMs.join(",")} ms; thesis: seed 001 Table 4.1's
                  ${THESIS_GRID.rateMbit.join(",")} Mbit/s x ${THESIS_GRID.rttMs.join(",")} ms
  --rates LIST    bandwidths in Mbit/s (default: the grid's)
  --rtts LIST     RTTs in ms (default: the grid's)
  --links NAME    plain (default): drop-tail buffers of 1.5 BDPs, each path's delay exact, so
                  the simulated client's runs of a cell are the same load; thesis: seed 001's
                  randomness (§3.7.7.3): RED buffers of 1.5 BDPs with Table 3.4's thresholds, and
                  each run's delays drawn within ±10% from its seed, so runs differ as the
                  thesis's 50 did
  --scheduler NAME  the kernel's MPTCP scheduler for the MPTCP experiments: one that
                  net.mptcp.available_schedulers lists (default: default)
  --tcp-profile NAME  simulated: linux (default: the kernel's defaults, CUBIC, initial window 10)
                  or thesis (seed 001 Table 3.3's ns-3 TCP: New Reno, initial window 4, 100 ms
                  delayed ACKs), to run the experiment as the thesis ran it
  --clock-tick-us N  simulated: how far the simulator's clock moves at least, in µs (default
                  1000, the tick it is calibrated at; docs/simulator.md, *The clock's tick*)
  --congestion NAME  the servers' congestion controller in every experiment: one the kernel
                  lists in net.ipv4.tcp_available_congestion_control (default cubic)
  --tail-loss-probes on|off  TCP tail loss probes in every experiment (default on)
  --workers N     runs at once (default 2; simulated: one per CPU)
  --work DIR      plans, runs and logs (default reproduction)
  --out DIR       the report and its plots (default WORK/report; the committed report is
                  docs/reproduction)
`,
  paths: { options: ["data", "work", "out"] },
  options: {
    only: { type: "string" },
    scenarios: { type: "string" },
    mismatch: { type: "string" },
    client: { type: "string", default: "emulated" },
    grid: { type: "string", default: "default" },
    data: { type: "string", default: DEFAULT_DATA },
    sites: { type: "string" },
    runs: { type: "string" },
    rates: { type: "string" },
    rtts: { type: "string" },
    links: { type: "string", default: "plain" },
    workers: { type: "string" },
    scheduler: { type: "string" },
    "scheduler-opt": { type: "string", multiple: true },
    congestion: { type: "string" },
    "tcp-profile": { type: "string" },
    "clock-tick-us": { type: "string" },
    "tail-loss-probes": { type: "string" },
    work: { type: "string", default: "reproduction" },
    out: { type: "string" },
  },
  async run(values) {
    const list = (name: string, fallback: number[]) => {
      if (values[name] === undefined) return fallback;
      const xs = String(values[name]).split(",").map(Number);
      if (xs.some((x) => !(x > 0))) throw new UsageError(`--${name} "${values[name]}": expected positive numbers separated by commas`);
      return xs;
    };
    const client = String(values.client);
    if (client !== "emulated" && client !== "simulated") throw new UsageError(`--client "${client}": expected emulated or simulated`);
    const grids: Record<string, typeof DEFAULT_GRID> = { default: DEFAULT_GRID, thesis: THESIS_GRID };
    const base = grids[String(values.grid)];
    if (!base) throw new UsageError(`--grid "${values.grid}": expected default or thesis`);
    const links = String(values.links);
    if (links !== "plain" && links !== "thesis") throw new UsageError(`--links "${links}": expected plain or thesis`);
    // Only when asked, so that a reproduction begun without it resumes with the same plans.
    const thesisLinks = links === "thesis" ? { queueDiscipline: "red" as const, rttJitter: THESIS_RTT_JITTER } : {};
    const grid = { rateMbit: list("rates", base.rateMbit), rttMs: list("rtts", base.rttMs), ...thesisLinks };
    const runs = numberOption(values, "runs", 1, 1, 100);
    const workers = numberOption(values, "workers", client === "simulated" ? availableParallelism() : 2, 1, 64);
    // The experiments run MPTCP: the kernel's scheduler, or pagepath's in the simulator, checked before anything runs.
    const mptcpScheduler = values.scheduler === undefined && values["scheduler-opt"] === undefined ? undefined : schedulerOption("mptcp", values, client)!;
    // Its experiments run TCP and MPTCP, which take the same kernel controllers; in the plans only when given.
    const knobs = values.congestion === undefined && values["tail-loss-probes"] === undefined ? undefined : transportKnobOptions("tcp", values);
    const congestion = values.congestion === undefined ? undefined : knobs!.congestion;
    const tailLossProbes = values["tail-loss-probes"] === undefined ? undefined : knobs!.tailLossProbes!;
    const sites = values.sites === undefined ? undefined : String(values.sites).split(",").filter(Boolean);
    const tcpProfile = values["tcp-profile"] === undefined ? undefined : String(values["tcp-profile"]);
    if (tcpProfile !== undefined && tcpProfile !== "linux" && tcpProfile !== "thesis") throw new UsageError(`--tcp-profile "${tcpProfile}": expected linux or thesis`);
    if (tcpProfile !== undefined && client !== "simulated") throw new UsageError(`--tcp-profile: the emulated client runs the kernel's TCP; a TCP profile is the simulator's (--client simulated)`);
    const clockTickUs = clockTickOption(values, [client], ["tcp", "mptcp"]);
    const only = values.only === undefined ? THESIS : String(values.only).split(",").filter(Boolean);
    const unknown = only.filter((n) => !EXPERIMENTS.includes(n));
    if (unknown.length > 0 || only.length === 0) throw new UsageError(`--only "${values.only}": expected names among ${EXPERIMENTS.join(", ")}`);
    // Checked before any experiment runs.
    const mismatches = String(values.mismatch ?? "rtt,bandwidth").split(",").filter(Boolean);
    if (mismatches.length === 0 || mismatches.some((m) => !Object.hasOwn(MISMATCHES, m))) throw new UsageError(`--mismatch "${values.mismatch}": expected rtt, bandwidth or both, separated by a comma`);
    const out = values.out === undefined ? join(String(values.work), "report") : String(values.out);
    const command = ["pagepath reproduce", ...process.argv.slice(3)].join(" ");
    if (only.some((n) => THESIS.includes(n))) {
      const experiments = await runReproduction({ client, data: String(values.data), sites, runs, grid, work: String(values.work), workers, mptcpScheduler, congestion, tailLossProbes, tcpProfile, clockTickUs, only });
      const inputs = experiments.map(({ experiment, prepared }) => {
        // A simulated reproduction is thesis-scale, too many runs to hold whole, and its experiment
        // (HTTP/1.1 against HTTP/2) reads only their load times.
        const results = readExperiment(prepared.planFile, { light: client === "simulated" });
        const analysis = analyzeExperiment(results, { baseline: experiment.baseline, candidates: [experiment.candidate] });
        return { experiment, results, analysis };
      });
      const report = writeReport(out, inputs, command);
      for (const i of inputs) writeFileSync(join(out, i.experiment.plan.name, "runs.csv"), runsCsv(i.analysis.rows));
      process.stdout.write(`wrote ${shownPath(report)} and its plots; the runs are in ${shownPath(join(String(values.work), "results"))}\n`);
    }
    if (only.includes(SRPT_ECF)) {
      const corpus = corpusSites(String(values.data), sites);
      const page = pickPage(corpus.graphsDir, corpus.sites);
      const alone = settingResult(page, messagesAlone(page));
      const runsDone = await runSrptEcfLoads(page, { data: String(values.data), work: String(values.work), client, runs, workers });
      const how = `${client === "simulated" ? "the simulator" : "the emulated browser in real time"}, HTTP/3 over multipath QUIC, ${runs} run(s) per scheduler, each response sent as soon as the server model has it (out-of-order, with the recording's server delays, no prioritisation), drop-tail queues of 16 packets`;
      const report = writeSrptEcfReport(out, page, alone, settingResult(page, loadCompletions(runsDone, page)), how, command);
      process.stdout.write(`wrote ${shownPath(report)} and its plots\n`);
    }
    if (only.includes(MPQUIC_VS_MPTCP)) {
      const count = numberOption(values, "scenarios", client === "simulated" ? SEED_SCENARIOS : EMULATED_SCENARIOS, 1, 10_000);
      const all = SCENARIO_CLASSES.flatMap((c) => scenarios(c, count));
      const runsDone = await runMpquicVsMptcp(all, { work: String(values.work), client, runs, workers });
      const how = `${client === "simulated" ? "the simulator" : "the emulated browser in real time over the link emulator"}, ${count} scenario(s) per class, each path first in turn, ${runs} run(s) per cell (the median taken), drop-tail queues of the drawn queuing delay at the path's rate (at least 4 packets)`;
      const report = writeMpquicVsMptcpReport(out, classResults(all, cellResults(runsDone)), how, command);
      process.stdout.write(`wrote ${shownPath(report)} and its plots\n`);
    }
    if (only.includes(MODIFIED_STACK)) {
      const own = String(values.grid) === "thesis" ? TABLE_6_1_GRID : MODIFIED_STACK_GRID;
      const stackGrid = { rateMbit: list("rates", own.rateMbit), rttMs: list("rtts", own.rttMs), ...thesisLinks };
      const done = await runModifiedStack({ client, data: String(values.data), sites, runs, grid: stackGrid, mismatches: mismatches as ("rtt" | "bandwidth")[], work: String(values.work), workers });
      const how = `${client === "simulated" ? "the simulator (docs/simulator.md): the emulated browser and the replay servers in virtual time" : "the emulated browser in real time over the link emulator and the kernel's TCP and MPTCP"}, ${done.sites} corpus site(s), ${stackGrid.rateMbit.join(", ")} Mbit/s x ${stackGrid.rttMs.join(", ")} ms on the first path, ${runs} run(s) per cell, drop-tail buffers of 1.5 bandwidth-delay products${links === "thesis" ? " (RED, with delays drawn within ±10% per run)" : ""}, critical-path priorities`;
      const report = writeModifiedStackReport(out, done, how, command);
      process.stdout.write(`wrote ${shownPath(report)} and its plots\n`);
    }
    if (only.includes(SA_ECF_WEB)) {
      const webRuns = values.runs === undefined ? SA_ECF_WEB_RUNS : runs;
      const work = join(String(values.work), SA_ECF_WEB);
      const webDone = client === "simulated" ? await simulateSaEcfWeb(work, webRuns, workers) : await runSaEcfWeb(work, webRuns);
      const report = writeSaEcfWebReport(out, webDone, command, client);
      process.stdout.write(`wrote ${shownPath(report)} and its plots\n`);
    }
    return 0;
  },
};
