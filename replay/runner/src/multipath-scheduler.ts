/**
 * Which multipath scheduler a run asks for, checked before anything starts. The names and options
 * of multipath QUIC's schedulers belong to pagepath-server (`pagepath-server schedulers`, from the
 * Rust registry), which is asked rather than copied; MPTCP's are whatever the kernel lists.
 */
import type { Client, SchedulerChoice, Transport } from "@pagepath/results";
import { mptcpSchedulers } from "./mptcp-scheduler.js";
import { askReplayServer } from "./server-verb.js";

export interface SchedulerEntry {
  name: string;
  /** pagepath: replay/multipath's registry; tquic: tquic's own. */
  family: "pagepath" | "tquic";
  summary: string;
}

export interface QuicSchedulers {
  default: string;
  schedulers: SchedulerEntry[];
}

/** A scheduler that cannot be had: the message names the option or field at fault and the choices. */
export class SchedulerRefusal extends Error {}

let catalogue: QuicSchedulers | undefined;

/** Multipath QUIC's schedulers, as pagepath-server lists them. */
export function quicSchedulers(): QuicSchedulers {
  catalogue ??= JSON.parse(askServer([])) as QuicSchedulers;
  return catalogue;
}

/** The MPTCP scheduler used when none is asked for. */
export const MPTCP_DEFAULT = "default";

/** What a run over `transport` runs when no scheduler is asked for: null without a choice of path. */
export function defaultScheduler(transport: Transport): SchedulerChoice | null {
  if (transport === "mpquic") return { name: quicSchedulers().default, options: {} };
  if (transport === "mptcp") return { name: MPTCP_DEFAULT, options: {} };
  return null;
}

/**
 * `name` (undefined: the default) with `options` (KEY=VALUE strings) for `transport`, as a run
 * result records it; throws a SchedulerRefusal for an unknown name, a bad option, or a scheduler
 * asked of a transport with one path. The simulator's MPTCP (`client` simulated) runs pagepath's
 * schedulers, or `default` for the kernel's; a real replay's MPTCP runs the kernel's.
 */
export function resolveScheduler(transport: Transport, name: string | undefined, options: readonly string[], client?: Client): SchedulerChoice | null {
  const asked = name !== undefined || options.length > 0;
  if (transport === "tcp" || transport === "quic") {
    if (!asked) return null;
    const what = name === undefined ? `--scheduler-opt ${options[0]}` : `--scheduler ${name}`;
    throw new SchedulerRefusal(
      `${what}: --transport ${transport} has one path, so no multipath scheduler to choose; use mpquic (${quicNames()}) or mptcp (this kernel's: ${mptcpSchedulers().join(", ")})`,
    );
  }
  if (transport === "mptcp") return client === "simulated" ? simulatedMptcpScheduler(name, options) : kernelScheduler(name, options);
  const args = ["--scheduler", name ?? quicSchedulers().default, ...options.flatMap((o) => ["--scheduler-opt", o])];
  return JSON.parse(askServer(args)) as SchedulerChoice;
}

function kernelScheduler(name: string | undefined, options: readonly string[]): SchedulerChoice {
  const available = mptcpSchedulers();
  const chosen = name ?? MPTCP_DEFAULT;
  if (!available.includes(chosen)) {
    throw new SchedulerRefusal(
      `--scheduler ${chosen}: this kernel's MPTCP has no such scheduler; net.mptcp.available_schedulers lists ${available.join(", ")} (pagepath's schedulers, ${quicNames()}, run over --transport mpquic)`,
    );
  }
  if (options.length > 0) throw new SchedulerRefusal(`--scheduler-opt ${options[0]}: the kernel's MPTCP schedulers take no options`);
  return { name: chosen, options: {} };
}

function simulatedMptcpScheduler(name: string | undefined, options: readonly string[]): SchedulerChoice {
  const chosen = name ?? MPTCP_DEFAULT;
  if (chosen === MPTCP_DEFAULT) {
    if (options.length > 0) throw new SchedulerRefusal(`--scheduler-opt ${options[0]}: the kernel's default MPTCP scheduler takes no options`);
    return { name: chosen, options: {} };
  }
  const ours = quicSchedulers().schedulers.filter((s) => s.family === "pagepath").map((s) => s.name);
  if (!ours.includes(chosen)) {
    throw new SchedulerRefusal(`--scheduler ${chosen}: the simulator's MPTCP runs ${MPTCP_DEFAULT} (the kernel's) or one of pagepath's schedulers: ${ours.join(", ")}`);
  }
  return JSON.parse(askServer(["--scheduler", chosen, ...options.flatMap((o) => ["--scheduler-opt", o])])) as SchedulerChoice;
}

function quicNames(): string {
  return quicSchedulers().schedulers.map((s) => s.name).join(", ");
}

/** `pagepath-server schedulers ARGS`: its stdout, or its refusal as a SchedulerRefusal. */
function askServer(args: string[]): string {
  return askReplayServer(["schedulers", ...args], SchedulerRefusal);
}
