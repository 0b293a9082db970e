/**
 * The congestion controller and TCP tail loss probes a run asks the servers for, checked before
 * anything starts by `pagepath-server transport-knobs`, the code serve itself checks them with:
 * the kernel's list of controllers and tquic's are the binary's to know, not copied here.
 */
import type { Client, RunConfiguration, Transport } from "@pagepath/results";
import { askReplayServer } from "./server-verb.js";

export type TransportKnobs = Required<Pick<RunConfiguration, "congestion" | "tailLossProbes">>;

/** A value the transport cannot run: the message names the option and what it takes instead. */
export class TransportKnobRefusal extends Error {}

const checked = new Map<string, TransportKnobs>();

/**
 * Controllers that couple an MPTCP connection's subflows (LIA, RFC 6356; OLIA): the kernel's
 * MPTCP has none, so only the simulator runs them, with Reno on the servers' subflows and the
 * coupling in its MPTCP (replay/sim/src/mptcp/coupled.rs).
 */
export const COUPLED = ["lia", "olia"];

/** True when `client` runs `congestion` as a coupled controller over `transport`. */
export function isCoupled(client: Client | undefined, transport: Transport, congestion: string | undefined): boolean {
  return client === "simulated" && transport === "mptcp" && COUPLED.includes(congestion ?? "");
}

/**
 * `congestion` and `tailLossProbes` (undefined: the server's defaults, cubic and on) for
 * `transport`, as a run result records them; throws a TransportKnobRefusal for a controller the
 * transport's stack lacks, or tail loss probes off over QUIC. The simulated client's MPTCP also
 * takes the coupled controllers.
 */
export function resolveTransportKnobs(transport: Transport, congestion: string | undefined, tailLossProbes: boolean | undefined, client?: Client): TransportKnobs {
  if (isCoupled(client, transport, congestion)) return { ...resolveTransportKnobs(transport, "reno", tailLossProbes), congestion: congestion! };
  const args = ["transport-knobs", "--transport", transport];
  if (congestion !== undefined) args.push("--congestion", congestion);
  if (tailLossProbes !== undefined) args.push("--tail-loss-probes", tailLossProbes ? "on" : "off");
  const key = args.join(" ");
  let knobs = checked.get(key);
  if (!knobs) {
    knobs = JSON.parse(askReplayServer(args, TransportKnobRefusal)) as TransportKnobs;
    checked.set(key, knobs);
  }
  return knobs;
}
