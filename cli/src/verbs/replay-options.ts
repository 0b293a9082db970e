import { DEFAULT_CLOCK_TICK_US, HTTP1_MODES, PRIORITY_SCHEMES, TICKED_TRANSPORTS, SERVER_MODELS, WAIT_FOR, transportRefusal, transportsFor, type Client, type RunConfiguration, type SchedulerChoice, type Transport } from "@pagepath/results";
import { resolveScheduler, resolveTransportKnobs, SchedulerRefusal, TransportKnobRefusal, type TransportKnobs } from "@pagepath/runner";
import { numberOption, UsageError } from "../verb.js";

/** Options of a replay run's configuration, shared by `pagepath replay` and `pagepath accuracy`. */
export const RUN_OPTIONS = {
  protocol: { type: "string", default: "h2" },
  transport: { type: "string" },
  connections: { type: "string" },
  model: { type: "string", default: "out-of-order" },
  priority: { type: "string", default: "none" },
  "chunk-bytes": { type: "string" },
  scheduler: { type: "string" },
  "scheduler-opt": { type: "string", multiple: true },
  congestion: { type: "string" },
  "tail-loss-probes": { type: "string" },
  "no-preloader": { type: "boolean", default: false },
  "cpu-factor": { type: "string" },
  "wait-for": { type: "string", default: "graph" },
  timeout: { type: "string" },
  seed: { type: "string" },
} as const;

export const RUN_OPTIONS_HELP = `
  --protocol h1|h1.0|h1-pipelined|h2|h3   (default h2; h1 keeps k connections per origin alive)
  --transport tcp|mptcp|quic|mpquic       (default tcp, quic for h3; mpquic: emulated browser only)
  --connections K         HTTP/1.x connections per origin, emulated browser (default 6)
  --model serial|parallel|out-of-order    server model (default out-of-order)
  --priority none|browser|mime|critical-path   how servers order ready responses (default none)
  --chunk-bytes N         server scheduling granularity (default 16384)
  --scheduler NAME        multipath scheduler. mpquic: one of pagepath's (default lowest-rtt;
                          docs/multipath-schedulers.md) or tquic's own minrtt or roundrobin,
                          on the servers and the emulated browser alike; mptcp: one the kernel
                          lists in net.mptcp.available_schedulers (default: default)
  --scheduler-opt KEY=VALUE  an option of the mpquic scheduler, e.g. beta=1 (repeatable)
  --congestion NAME       the servers' congestion controller (default cubic): tcp/mptcp one the
                          kernel lists in net.ipv4.tcp_available_congestion_control, quic/mpquic
                          tquic's cubic, bbr, bbr3 or copa; pagepath simulate's mptcp also lia
                          or olia, coupled subflows, which the kernel's MPTCP does not have
  --tail-loss-probes on|off  TCP tail loss probes in the servers' namespace (default on; tcp and
                          mptcp only: QUIC's probe timeout cannot be switched off)
  --no-preloader          emulated browser: no fetching ahead of a blocked parser
  --cpu-factor F          emulated browser: computation times x F (default 1)
  --wait-for dcl|load|graph               emulated browser: when the run ends (default graph)
  --timeout S             a load still going after S seconds is ended and marked incomplete (default 120)
  --seed N                seeds server delays and the emulated link (default: drawn, then recorded)`;

const PROTOCOL_NAMES: Record<string, { protocol: RunConfiguration["protocol"]; http1?: RunConfiguration["http1"] }> = {
  h1: { protocol: "h1", http1: "1.1" },
  "h1.0": { protocol: "h1", http1: "1.0" },
  "h1-pipelined": { protocol: "h1", http1: "1.1-pipelined" },
  h2: { protocol: "h2" },
  h3: { protocol: "h3" },
};

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} "${value}": expected one of ${allowed.join(", ")}`);
  return value as T;
}

export interface RunSettings {
  configuration: Omit<RunConfiguration, "network">;
  timeoutMs: number;
  seed: number;
}

/** A run's configuration from the options, checked, with the option named in every error. */
export function runSettings(values: Record<string, unknown>, client: Client): RunSettings {
  const named = PROTOCOL_NAMES[String(values.protocol)];
  if (!named) throw new UsageError(`--protocol "${values.protocol}": expected one of ${Object.keys(PROTOCOL_NAMES).join(", ")}`);
  const transports = transportsFor(named.protocol);
  const transport = oneOf("transport", values.transport ?? transports[0], transports);
  refuseTransport(client, transport, "use --client emulated for mpquic, or --transport quic");
  // The simulator runs the emulated browser's model, with its settings.
  const emulated = client !== "chromium";
  const configuration: RunSettings["configuration"] = {
    protocol: named.protocol,
    transport,
    serverModel: oneOf("model", values.model, SERVER_MODELS),
    priority: oneOf("priority", values.priority, PRIORITY_SCHEMES),
    chunkSizeBytes: numberOption(values, "chunk-bytes", 16_384, 1024, 16 * 1024 * 1024),
    connectionsPerOrigin: emulated ? (named.protocol === "h1" ? numberOption(values, "connections", 6, 1, 64) : 1) : null,
    emulation: emulated
      ? { preloader: !values["no-preloader"], cpuFactor: numberOption(values, "cpu-factor", 1, 0.01, 100), waitFor: oneOf("wait-for", values["wait-for"], WAIT_FOR) }
      : null,
  };
  if (named.http1) configuration.http1 = oneOf("protocol", named.http1, HTTP1_MODES);
  configuration.scheduler = schedulerOption(transport, values, client);
  Object.assign(configuration, transportKnobOptions(transport, values, client));
  return {
    configuration,
    timeoutMs: numberOption(values, "timeout", 120, 1, 3600) * 1000,
    seed: numberOption(values, "seed", Math.floor(Math.random() * 2 ** 48), 0, Number.MAX_SAFE_INTEGER),
  };
}

/** --scheduler and --scheduler-opt for `transport`, checked by the binaries that will run them. */
export function schedulerOption(transport: Transport, values: Record<string, unknown>, client?: Client): SchedulerChoice | null {
  const name = values.scheduler as string | undefined;
  const options = (values["scheduler-opt"] as string[] | undefined) ?? [];
  try {
    return resolveScheduler(transport, name, options, client);
  } catch (e) {
    throw e instanceof SchedulerRefusal ? new UsageError(e.message) : e;
  }
}

/** --congestion and --tail-loss-probes for `transport`, checked by pagepath-server, which will run them. */
export function transportKnobOptions(transport: Transport, values: Record<string, unknown>, client?: Client): TransportKnobs {
  const probes = values["tail-loss-probes"] as string | undefined;
  if (probes !== undefined && probes !== "on" && probes !== "off") throw new UsageError(`--tail-loss-probes "${probes}": expected on or off`);
  try {
    return resolveTransportKnobs(transport, values.congestion as string | undefined, probes === undefined ? undefined : probes === "on", client);
  } catch (e) {
    throw e instanceof TransportKnobRefusal ? new UsageError(e.message) : e;
  }
}

/**
 * --clock-tick-us: how far the simulator's clock moves at least over TCP and MPTCP (the simulated
 * client only; QUIC's world moves to each event's exact microsecond); undefined when not given.
 */
export function clockTickOption(values: Record<string, unknown>, clients: readonly string[], transports: readonly string[]): number | undefined {
  if (values["clock-tick-us"] === undefined) return undefined;
  if (!clients.includes("simulated")) {
    const which = clients.length === 1 ? `the ${clients[0]} client runs` : `the ${clients.join(" and ")} clients run`;
    throw new UsageError(`--clock-tick-us: ${which} in real time; a clock tick is the simulator's (the simulated client)`);
  }
  if (!transports.some((t) => TICKED_TRANSPORTS.includes(t))) {
    throw new UsageError(`--clock-tick-us: only the simulator's TCP and MPTCP take a tick; over ${transports.join(", ")} its clock moves to each event's exact microsecond`);
  }
  return numberOption(values, "clock-tick-us", DEFAULT_CLOCK_TICK_US, 1, 1_000_000);
}

/** A transport `client` cannot run, as a usage error saying why and what to ask for instead. */
export function refuseTransport(client: Client, transport: Transport, instead: string): void {
  const refusal = transportRefusal(client, transport);
  if (refusal) throw new UsageError(`--transport ${transport}: ${refusal}; ${instead}`);
}
