/**
 * The congestion controller and TCP tail loss probes a run asks the servers for, checked before
 * anything starts by `pagepath-server transport-knobs`, the code serve itself checks them with:
 * the kernel's list of controllers and tquic's are the binary's to know, not copied here.
 */
import { spawnSync } from "node:child_process";
import type { RunConfiguration, Transport } from "@pagepath/results";
import { requireBinary } from "./binaries.js";
import { REPLAY_SERVER } from "./server-process.js";

export type TransportKnobs = Required<Pick<RunConfiguration, "congestion" | "tailLossProbes">>;

/** A value the transport cannot run: the message names the option and what it takes instead. */
export class TransportKnobRefusal extends Error {}

const checked = new Map<string, TransportKnobs>();

/**
 * `congestion` and `tailLossProbes` (undefined: the server's defaults, cubic and on) for
 * `transport`, as a run result records them; throws a TransportKnobRefusal for a controller the
 * transport's stack lacks, or tail loss probes off over QUIC.
 */
export function resolveTransportKnobs(transport: Transport, congestion: string | undefined, tailLossProbes: boolean | undefined): TransportKnobs {
  const args = ["transport-knobs", "--transport", transport];
  if (congestion !== undefined) args.push("--congestion", congestion);
  if (tailLossProbes !== undefined) args.push("--tail-loss-probes", tailLossProbes ? "on" : "off");
  const key = args.join(" ");
  let knobs = checked.get(key);
  if (!knobs) {
    const r = spawnSync(requireBinary(REPLAY_SERVER), args, { encoding: "utf8" });
    if (r.error) throw new Error(`cannot run ${REPLAY_SERVER}: ${r.error.message}`);
    if (r.status === 2) throw new TransportKnobRefusal(r.stderr.trim().replace(/^pagepath-server: /, ""));
    if (r.status !== 0) throw new Error(`${REPLAY_SERVER} transport-knobs exited with ${r.status}: ${r.stderr.trim()}`);
    knobs = JSON.parse(r.stdout) as TransportKnobs;
    checked.set(key, knobs);
  }
  return knobs;
}
