import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { NET_BINARY } from "../binaries.js";
import { cellTopologyName } from "../sweep/run-cell.js";

/**
 * Cleans up after runs this process gave up on while they were going (they cannot be cancelled):
 * kills this process's children, its replay servers and clients, and takes down the runs'
 * topologies, all synchronously, so that nothing of those runs gets to
 * start again before the process exits.
 */
export function abandonRuns(tags: string[]): void {
  for (const pid of childPids()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // it exited meanwhile
    }
  }
  for (const tag of tags) {
    try {
      execFileSync(NET_BINARY, ["down", cellTopologyName(tag)], { stdio: "ignore" });
    } catch {
      // not up (yet, or any more)
    }
  }
}

function childPids(): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((d) => parentOf(d) === process.pid).map(Number);
}

/** The parent pid in /proc/PID/stat: the field after the command name, which may itself hold spaces and parentheses. */
function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}
