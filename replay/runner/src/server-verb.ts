import { spawnSync } from "node:child_process";
import { requireBinary } from "./binaries.js";
import { REPLAY_SERVER } from "./server-process.js";

/**
 * `pagepath-server VERB ARGS...` for a check whose answer is the binary's to know (its schedulers,
 * the kernel's and tquic's controllers): its stdout; its refusal (exit 2) as a `Refusal`, with the
 * message the server gave, so a caller can make it a usage error.
 */
export function askReplayServer(args: string[], Refusal: new (message: string) => Error): string {
  const r = spawnSync(requireBinary(REPLAY_SERVER), args, { encoding: "utf8" });
  if (r.error) throw new Error(`cannot run ${REPLAY_SERVER}: ${r.error.message}`);
  if (r.status === 2) throw new Refusal(r.stderr.trim().replace(/^pagepath-server: /, ""));
  if (r.status !== 0) throw new Error(`${REPLAY_SERVER} ${args[0]} exited with ${r.status}: ${r.stderr.trim()}`);
  return r.stdout;
}
