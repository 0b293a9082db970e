import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { numberOption, parseOptions, UsageError } from "../verb.js";
import { rustBinary } from "../rust-binary.js";

const run = promisify(execFile);
const NETPROBE = rustBinary("pagepath-netprobe");
/** The UDP port the echo server takes in the topology's server namespace (its own namespace: no clash). */
const PORT = 47_001;

export const PING_USAGE = `usage: pagepath net ping NAME [--count N] [--interval-ms MS] [--size BYTES] [--json]

Measures each path of topology NAME as ping would: UDP probes from the client's address on the
path to the server's end of it (pagepath-netprobe rtt against an echo in the server namespace),
then sent, received, loss and the round trip's min / median / mean / p90 / max. Defaults: 20
probes 50 ms apart, 64 bytes. Needs root, as the topology does.
`;

interface RttReport {
  sent: number;
  received: number;
  rttMs: { min: number; p50: number; p90: number; max: number; mean: number } | null;
}

/** `pagepath net ping`: each path's round trip and loss, measured through the topology. Exit 2 for a usage error, 1 for a failure. */
export async function netPing(netBinary: string, argv: string[]): Promise<number> {
  try {
    return await ping(netBinary, argv);
  } catch (e) {
    const usage = e instanceof UsageError;
    process.stderr.write(`pagepath net ping: ${(e as Error).message}\n${usage ? "(see pagepath net ping --help)\n" : ""}`);
    return usage ? 2 : 1;
  }
}

async function ping(netBinary: string, argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(PING_USAGE);
    return 0;
  }
  const { values, positionals } = parseOptions(argv, { count: { type: "string" }, "interval-ms": { type: "string" }, size: { type: "string" }, json: { type: "boolean" } }, {});
  if (positionals.length !== 1) throw new UsageError("expected the name of one topology that is up (pagepath net status lists them)");
  const name = positionals[0]!;
  const count = numberOption(values, "count", 20, 1, 10_000);
  const intervalMs = numberOption(values, "interval-ms", 50, 0, 60_000);
  const size = numberOption(values, "size", 64, 32, 65_507);
  const paths = await topologyPaths(netBinary, name);
  const echoSeconds = paths.length * (count * intervalMs / 1000 + 4) + 10;
  const echo = spawn(netBinary, ["exec", name, "server", "--", NETPROBE, "echo", "--listen", `0.0.0.0:${PORT}`, "--seconds", String(echoSeconds)], { stdio: ["ignore", "ignore", "pipe"] });
  let echoError = "";
  echo.stderr!.on("data", (d) => (echoError += d));
  try {
    const reports: { path: string; from: string; to: string; report: RttReport }[] = [];
    for (const p of paths) {
      const probe = (n: number, interval: number, timeoutMs: number) =>
        run(netBinary, ["exec", name, "client", "--", NETPROBE, "rtt", "--connect", `${p.serverLinkAddr}:${PORT}`, "--count", String(n), "--interval-ms", String(interval), "--size", String(size), "--timeout-ms", String(timeoutMs)]).then((r) => JSON.parse(r.stdout) as RttReport);
      // The echo server starts in its namespace while the first probes leave: wait for one reply.
      let ready = false;
      for (let i = 0; i < 20 && !ready; i++) ready = (await probe(1, 0, 250)).received === 1;
      if (!ready) throw new Error(`no echo from ${p.serverLinkAddr} on path ${p.name} within 5 s${echoError ? `: ${echoError.trim()}` : " (is the path down, or dropping everything?)"}`);
      reports.push({ path: p.name, from: p.clientAddr, to: p.serverLinkAddr, report: await probe(count, intervalMs, 2000) });
    }
    if (values.json) process.stdout.write(JSON.stringify(reports, null, 1) + "\n");
    else for (const r of reports) process.stdout.write(line(r) + "\n");
    return 0;
  } finally {
    echo.kill("SIGTERM");
  }
}

function line(r: { path: string; from: string; to: string; report: RttReport }): string {
  const { sent, received, rttMs } = r.report;
  const loss = sent ? (100 * (sent - received)) / sent : 0;
  const rtt = rttMs ? `rtt min/median/mean/p90/max ${[rttMs.min, rttMs.p50, rttMs.mean, rttMs.p90, rttMs.max].map((x) => x.toFixed(2)).join("/")} ms` : "no reply";
  return `${r.path} (${r.from} -> ${r.to}): ${sent} sent, ${received} received, ${loss.toFixed(1)}% loss; ${rtt}`;
}

async function topologyPaths(netBinary: string, name: string): Promise<{ name: string; clientAddr: string; serverLinkAddr: string }[]> {
  let out: string;
  try {
    out = (await run(netBinary, ["status", name, "--json"])).stdout;
  } catch (e) {
    throw new Error(((e as { stderr?: string }).stderr ?? (e as Error).message).replace(/^pagepath net: /, "").trim());
  }
  const [t] = JSON.parse(out) as { alive: boolean; state: { phase: string; paths: { name: string; clientAddr: string; serverLinkAddr: string }[] } }[];
  if (!t || !t.alive || t.state.phase !== "up") throw new Error(`no topology named "${name}" is up (see pagepath net status)`);
  return t.state.paths;
}
