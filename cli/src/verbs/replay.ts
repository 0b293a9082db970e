import { basename, resolve } from "node:path";
import { rustBinary, runRustBinary } from "../rust-binary.js";
import { timestamp } from "../timestamp.js";
import { NET_BINARY } from "./net.js";
import { UsageError, type Verb } from "../verb.js";
import { REPLAY_OPTIONS, replayRun, RUN_USAGE } from "./replay-run.js";
import { schedulerOption } from "./replay-options.js";
import { setMptcpScheduler } from "@pagepath/runner";

export const SERVER_BINARY = rustBinary("pagepath-server");

const SERVE_USAGE = `
usage: pagepath replay serve RECORDING [--net NAME] [--out DIR] [server options]

Serves a recording from one origin server per recorded host until Ctrl-C. With --net NAME the
servers run in the server namespace of the emulated topology NAME (pagepath net up), on
10.200.1.1 and up; without it, on 127.0.1.1 and up. DIR (default replays/<recording>-<time>)
receives origins.json (the name map and Chromium's flags), the certificate, per-connection and
per-stream logs, fidelity.json and qlog/. Server options (pagepath-server help):
  --protocol h1|h1-clear|h2|h3   --transport tcp|mptcp|quic|mpquic
  --model serial|parallel|out-of-order --priority none|mime|critical-path|browser [--preemption]
  --chunk-bytes N --graph FILE --delays recorded|zero --delay-samples FILE --seed N
  --scheduler NAME [--scheduler-opt KEY=VALUE]...
                    mpquic: one of pagepath's multipath schedulers (default lowest-rtt;
                    docs/multipath-schedulers.md) or tquic's minrtt or roundrobin; mptcp (with
                    --net): one the kernel lists in net.mptcp.available_schedulers, set in the
                    topology's namespaces
  --congestion NAME --tail-loss-probes on|off
                    the servers' congestion controller (default cubic; the kernel's for tcp/mptcp,
                    tquic's cubic|bbr|bbr3|copa for quic/mpquic) and TCP tail loss probes (default
                    on; off needs --net, and is refused for QUIC)
`;

function takeValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  argv.splice(i, 2);
  return value;
}

async function serve(argv: string[]): Promise<number> {
  const rest = [...argv];
  const net = takeValue(rest, "--net");
  const transport = rest.indexOf("--transport");
  if (transport >= 0 && rest[transport + 1] === "mptcp") await kernelScheduler(rest, net);
  const recording = rest.find((a, i) => !a.startsWith("--") && (i === 0 || !rest[i - 1]!.startsWith("--") || VALUELESS.has(rest[i - 1]!)));
  if (!rest.includes("--out")) {
    const name = recording ? basename(resolve(recording)) : "replay";
    rest.push("--out", `replays/${name}-${timestamp()}`);
  }
  if (!rest.includes("--first-address")) rest.push("--first-address", net ? "10.200.1.1" : "127.0.1.1");
  const server = ["serve", ...rest];
  if (net === undefined) return runRustBinary("pagepath replay", SERVER_BINARY, server);
  return runRustBinary("pagepath replay", NET_BINARY, ["exec", net, "server", "--", SERVER_BINARY, ...server]);
}

/**
 * MPTCP's scheduler is the kernel's: taken out of the server's options, checked against what the
 * kernel lists, and set in the topology's namespaces (never on the host).
 */
async function kernelScheduler(rest: string[], net: string | undefined): Promise<void> {
  const name = takeValue(rest, "--scheduler");
  const options: string[] = [];
  for (let o = takeValue(rest, "--scheduler-opt"); o !== undefined; o = takeValue(rest, "--scheduler-opt")) options.push(o);
  const chosen = schedulerOption("mptcp", { scheduler: name, "scheduler-opt": options });
  if (name === undefined) return;
  if (net === undefined) throw new UsageError(`--scheduler ${name} with --transport mptcp needs --net NAME: pagepath sets net.mptcp.scheduler in its own namespaces only`);
  await setMptcpScheduler(net, chosen!.name);
}

const VALUELESS = new Set(["--preemption", "--no-qlog"]);

export const replayVerb: Verb = {
  name: "replay",
  summary: "replay a page through an emulated network: the emulated browser or Chromium against origin servers over HTTP/1.1, HTTP/2 or HTTP/3",
  usage: RUN_USAGE + SERVE_USAGE,
  // Parsed by replayRun itself (raw); listed here for shell completion.
  options: REPLAY_OPTIONS,
  run: async () => 2,
  raw: async (argv) => {
    const serving = argv[0] === "serve";
    const usage = (serving ? SERVE_USAGE : RUN_USAGE + SERVE_USAGE).trimStart();
    const asked = argv.length === 0 || ["help", "--help", "-h"].includes(argv[0]!) || argv.includes("--help");
    if (asked) {
      (argv.length === 0 ? process.stderr : process.stdout).write(usage);
      return argv.length === 0 ? 2 : 0;
    }
    try {
      if (serving) return await serve(argv.slice(1));
      return await replayRun(argv[0] === "run" ? argv.slice(1) : argv);
    } catch (e) {
      const usageError = e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
      process.stderr.write(`pagepath replay: ${(e as Error).message}${usageError ? "\n(see pagepath replay --help)" : ""}\n`);
      return 2;
    }
  },
};
