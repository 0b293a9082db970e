import { readFileSync } from "node:fs";

/** The machine's CPU time so far, in clock ticks: [all, stolen]; null where /proc/stat cannot be read. */
export type CpuTimes = [number, number] | null;

/**
 * The first line of /proc/stat, in clock ticks: user nice system idle iowait irq softirq steal;
 * null where it cannot be read or is not that line.
 */
export function machineTicks(stat = "/proc/stat"): number[] | null {
  let first: string;
  try {
    first = readFileSync(stat, "utf8").split("\n")[0] ?? "";
  } catch {
    return null;
  }
  const ticks = first.trim().split(/\s+/).slice(1, 9).map(Number);
  return ticks.length < 8 || ticks.some((t) => !Number.isFinite(t)) ? null : ticks;
}

/**
 * All ticks and the stolen ones. Steal is the time a virtual machine's CPUs were ready to run and
 * the hypervisor ran another guest instead; a benchmark measured while it is high compares two
 * things slowed by different amounts.
 */
export function cpuTimes(stat = "/proc/stat"): CpuTimes {
  const ticks = machineTicks(stat);
  return ticks && [ticks.reduce((a, b) => a + b, 0), ticks[7]!];
}

/** The share of the machine's CPU time stolen between two readings, 0 to 1; null when unknown or no time passed. */
export function stolenShare(before: CpuTimes, after: CpuTimes): number | null {
  if (!before || !after || after[0] <= before[0]) return null;
  return Math.max(0, after[1] - before[1]) / (after[0] - before[0]);
}
