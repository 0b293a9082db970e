import { spawnSync } from "node:child_process";
import { NET_BINARY, requireBinary } from "./binaries.js";
import { relayedStderr } from "./relayed-stderr.js";

/** Raised by requireRoot: the CLI prints its message and exits 2, as `pagepath net` does. */
export class NeedsRoot extends Error {}

/**
 * Why this process cannot bring a topology up, or null when it can. The check and its words are
 * pagepath net's own (`pagepath-net check-root`), so that every verb that runs replays refuses as
 * `pagepath net up` would, and a change to what the emulator needs changes them all.
 */
export function rootRefusal(): string | null {
  const r = spawnSync(requireBinary(NET_BINARY), ["check-root"], { encoding: "utf8" });
  if (r.status === 0) return null;
  // The verb that asked puts its own name before the refusal.
  return r.error?.message ?? (relayedStderr(r.stderr, "pagepath net") || `${NET_BINARY} check-root exited with ${r.status ?? r.signal}`);
}

/** Throws NeedsRoot unless this process can bring topologies up: call it before writing or starting anything. */
export function requireRoot(): void {
  const refusal = rootRefusal();
  if (refusal !== null) throw new NeedsRoot(refusal);
}
