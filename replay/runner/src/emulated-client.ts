import type { RunConfiguration } from "@pagepath/results";
import { BROWSER_BINARY, NET_BINARY, requireBinary } from "./binaries.js";
import type { ClientReport } from "./client-report.js";
import { reportLine } from "./report-line.js";
import { schedulerArgs } from "./server-args.js";
import type { Topology } from "./topology.js";

export interface EmulatedClientOptions {
  graphFile: string;
  originsFile: string;
  configuration: RunConfiguration;
  topology: Topology;
  timeoutMs: number;
}

/** The pagepath-browser options for a configuration (its --help lists them). */
export function browserArgs(o: EmulatedClientOptions): string[] {
  const c = o.configuration;
  const protocol = c.protocol !== "h1" ? c.protocol : { "1.0": "h1.0", "1.1": "h1", "1.1-pipelined": "h1-pipelined" }[c.http1 ?? "1.1"];
  const args = ["run", o.graphFile, "--origins", o.originsFile, "--protocol", protocol, "--transport", c.transport];
  if (c.connectionsPerOrigin !== null) args.push("--connections", String(c.connectionsPerOrigin));
  const locals = c.transport === "mpquic" ? o.topology.clientAddresses : o.topology.clientAddresses.slice(0, 1);
  for (const ip of locals) args.push("--local", ip);
  if (c.transport === "mpquic" && c.scheduler) args.push(...schedulerArgs(c.scheduler));
  args.push("--priority", c.priority, "--timeout", String(o.timeoutMs / 1000));
  const e = c.emulation;
  if (e) {
    if (!e.preloader) args.push("--no-preloader");
    args.push("--cpu-factor", String(e.cpuFactor), "--wait-for", e.waitFor);
  }
  return args;
}

/** Runs the emulated browser in the topology's client namespace; its report, or why it failed. */
export function runEmulatedClient(o: EmulatedClientOptions): Promise<ClientReport> {
  const args = ["exec", o.topology.name, "client", "--", requireBinary(BROWSER_BINARY), ...browserArgs(o)];
  // The browser stops itself at its timeout; the guard only catches a hang below it.
  return reportLine<ClientReport>(requireBinary(NET_BINARY), args, "pagepath-browser", o.timeoutMs + 30_000);
}
