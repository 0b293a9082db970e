import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * Each registered scheduler's decision cost on the sans-IO interface, measured by
 * pagepath-scheduler-bench (replay/multipath/src/bin): nanoseconds per decide() with the acks and
 * sends reported around it, on a synthetic two-path sender with 1 and with 20 sendable streams.
 */
const run = promisify(execFile);
export const SCHEDULER_BENCH = join(process.cwd(), "replay", "target", "release", "pagepath-scheduler-bench");

export interface DecisionCost {
  scheduler: string;
  streams: number;
  /** Median over the repetitions, with the quartiles. */
  nsPerDecision: number;
  nsP25: number;
  nsP75: number;
  ratioToLowestRtt: number;
  decisions: number;
  repetitions: number;
  /** Decisions that sent nothing (the scheduler chose to wait). */
  waits: number;
  packetsPerPath: number[];
  lostPackets: number;
  simulatedMs: number;
}

export async function benchDecisionCost(decisions = 4000, repetitions = 31): Promise<DecisionCost[]> {
  if (!existsSync(SCHEDULER_BENCH)) throw new Error(`${SCHEDULER_BENCH} is missing; build it with: cargo build --release --manifest-path replay/Cargo.toml`);
  const { stdout } = await run(SCHEDULER_BENCH, ["--decisions", String(decisions), "--repetitions", String(repetitions)], { maxBuffer: 1 << 20 });
  return stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as DecisionCost);
}
