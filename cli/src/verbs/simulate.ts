import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { checkReplayInputs, runSimulation, specNetwork } from "@pagepath/runner";
import { timestamp } from "../timestamp.js";
import { shownPath } from "../shown-path.js";
import { UsageError, type Verb } from "../verb.js";
import { clockTickOption, RUN_OPTIONS, RUN_OPTIONS_HELP, runSettings } from "./replay-options.js";
import { NETWORK_OPTIONS, optionsNetwork } from "./replay-run.js";
import { replaySummary } from "./replay-summary.js";

export const simulateVerb: Verb = {
  name: "simulate",
  summary: "replay a graph's page in virtual time: the emulated browser, the replay servers and tquic over simulated links",
  usage: `
usage: pagepath simulate GRAPH.json [network] [options]

Loads a graph's page as \`pagepath replay --client emulated\` does, with the same emulated browser,
replay servers, HTTP/1.x, HTTP/2 and HTTP/3 code, QUIC stack (tquic) and multipath schedulers, with
smoltcp's TCP, but over simulated paths in virtual time (the link emulator's own model of rate,
delay, loss and queue): no root, no namespaces, no waiting. Writes a run result
(docs/formats/run-result.md) of the client "simulated", which view, trace, analyze and accuracy
read as they read a replay's. TCP, MPTCP, QUIC and multipath QUIC. MPTCP's subflows are
smoltcp's TCP, one a path, split by --scheduler: one of pagepath's (as for mpquic) or default,
which stands for the kernel's default scheduler and runs kernel-default, a model of it (docs/simulator.md).
  --paths N --rate-mbit R --rtt-ms T [--loss P] [--queue TYPE[:LIMIT]] [--backup I]
                          as pagepath replay brings them up (default 1 path, 10 Mbit/s, 40 ms, no
                          loss, a drop-tail queue of one bandwidth-delay product, at least 16 packets;
                          --queue droptail or red, LIMIT packets=N, bytes=N or bdp=X)
  --clock-tick-us N       TCP and MPTCP: how far the simulated clock moves at least, in µs; a packet,
                          a stack's timer or a server's delay comes at the first tick at or after its
                          time (default 1000, the tick the simulator is calibrated at: docs/simulator.md,
                          *The clock's tick*); QUIC's clock moves to each event's exact microsecond
  --recording DIR         the recording to serve (default: the one the graph was built from)
  --out FILE              the run result (default runs/<graph>-simulated-<time>.json); the servers'
                          logs go to the folder beside it, FILE without .json plus .servers${RUN_OPTIONS_HELP.replace("(default h2;", "(default h3;")}
`,
  paths: { options: ["recording", "out"], positionals: true },
  options: {
    ...RUN_OPTIONS,
    protocol: { type: "string", default: "h3" },
    ...NETWORK_OPTIONS,
    recording: { type: "string" },
    out: { type: "string" },
    "clock-tick-us": { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected one GRAPH.json");
    const settings = runSettings(values, "simulated");
    const clockTickUs = clockTickOption(values, ["simulated"], [settings.configuration.transport]);
    if (clockTickUs !== undefined) settings.configuration.clockTickUs = clockTickUs;
    const graphFile = positionals[0]!;
    checkReplayInputs(graphFile, values.recording as string | undefined);
    const out = resolve((values.out as string | undefined) ?? join("runs", `${basename(graphFile, ".json")}-simulated-${timestamp()}.json`));
    const network = specNetwork(optionsNetwork(values, `${values["rate-mbit"] ?? 10}mbit-${values["rtt-ms"] ?? 40}ms`));
    process.stderr.write(`simulating ${shownPath(graphFile)} over ${settings.configuration.protocol}/${settings.configuration.transport} ...\n`);
    const { result, simulation } = await runSimulation({
      graphFile,
      recording: values.recording as string | undefined,
      configuration: settings.configuration,
      network,
      seed: settings.seed,
      timeoutMs: settings.timeoutMs,
      serverOut: out.replace(/\.json$/, "") + ".servers",
      resultFile: out,
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 1) + "\n");
    process.stdout.write(replaySummary(result, out));
    const ratio = simulation.wallMs > 0 ? simulation.virtualMs / simulation.wallMs : Infinity;
    process.stdout.write(`  simulated ${simulation.virtualMs.toFixed(0)} ms of virtual time in ${simulation.wallMs.toFixed(0)} ms (${ratio.toFixed(1)}x real time)\n`);
    return result.status === "ok" ? 0 : 1;
  },
};
