import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { atProcessEnd } from "./process-end.js";

/** Roots are named by their process's pid and start time, so that a later pid reuse does not keep one alive. */
const ROOT = /^pagepath-temp-(\d+)-(\d+)$/;

let root: string | undefined;

/**
 * This process's folder for temporary folders, made on first use and removed when the process
 * ends (atProcessEnd). A process killed outright (SIGKILL, a crash of node itself) cannot remove
 * its own: the first use in any later process removes every root whose process is gone, as
 * `pagepath net` takes down a crashed emulator's topology at its next start.
 */
export function tempRoot(): string {
  if (root !== undefined) return root;
  removeStaleRoots();
  const made = join(tmpdir(), `pagepath-temp-${process.pid}-${startTime(process.pid)}`);
  mkdirSync(made, { recursive: true });
  // On Ctrl-C the children writing into it (servers, browsers) are stopping at the same moment: retry.
  atProcessEnd(() => rmSync(made, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  root = made;
  return made;
}

function removeStaleRoots(): void {
  for (const name of readdirSync(tmpdir())) {
    const m = ROOT.exec(name);
    if (m && startTime(Number(m[1])) !== m[2]) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/** When process `pid` started (clock ticks since boot, /proc/PID/stat field 22), or null if there is no such process. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command name, may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
