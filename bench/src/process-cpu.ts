import { readFileSync } from "node:fs";

/** Linux's USER_HZ, what /proc/PID/stat counts CPU time in; 100 on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time a process and its descendants have used so far, µs: user and system time of every
 * thread, from /proc (10 ms ticks). A process that has gone counts 0, so measure around a span in
 * which the processes live.
 */
export function processTreeCpuUs(pid: number): number {
  let ticks = 0;
  const visit = (p: number) => {
    ticks += ownTicks(p);
    for (const child of childrenOf(p)) visit(child);
  };
  visit(pid);
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

function ownTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name, field 2, may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The process's children (of its main thread, which is where they are counted), or none if it has gone. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
