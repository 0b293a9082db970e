import { execFileSync } from "node:child_process";
import { atProcessEnd } from "@pagepath/temp-dirs";
import { NET_BINARY } from "./binaries.js";

const cancels = new Map<string, () => void>();

/**
 * Takes topology `name` down when this process ends, however it ends, unless topologyTakenDown
 * says it was done. `pagepath net up` starts the emulator in a session of its own, so the Ctrl-C
 * that stops this process never reaches it, and a topology whose emulator runs is not stale to
 * the next `net up` either: without this it would stay up for good.
 */
export function downAtProcessEnd(name: string): void {
  cancels.get(name)?.();
  cancels.set(
    name,
    atProcessEnd(() => {
      try {
        execFileSync(NET_BINARY, ["down", name], { stdio: "ignore" });
      } catch {
        // down already
      }
    }),
  );
}

export function topologyTakenDown(name: string): void {
  cancels.get(name)?.();
  cancels.delete(name);
}
