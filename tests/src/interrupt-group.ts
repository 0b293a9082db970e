import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

export interface Group {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

/** `command` in a process group of its own, so that a signal to the group reaches it all and nothing else. */
export function startGroup(command: string[], env: Record<string, string> = {}): Group {
  // Without this node --test would take itself for a test file's process of ours, and run nothing.
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const child = spawn(command[0]!, command.slice(1), { detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...outer, ...env } });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((ok) => child.on("close", () => ok()));
  return { child, exited, output: () => output };
}

/**
 * SIGINT to the whole group, as Ctrl-C, or another signal to the leader alone, as `kill PID`; then
 * the leader gone and the group's members given time to finish.
 */
export async function interrupt(group: Group, signal: "SIGINT" | "SIGTERM" = "SIGINT", to: "group" | "leader" = "group"): Promise<void> {
  process.kill(to === "group" ? -group.child.pid! : group.child.pid!, signal);
  await Promise.race([group.exited, sleep(30_000).then(() => assert.fail("the interrupted process did not end within 30 s"))]);
  for (let waited = 0; groupAlive(group.child.pid!) && waited < 10_000; waited += 100) await sleep(100);
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, output: () => string, ms = 120_000, everyMs = 100): Promise<T> {
  for (let waited = 0; waited < ms; waited += everyMs) {
    const found = await probe();
    if (found !== undefined) return found;
    await sleep(everyMs);
  }
  throw new Error(`${what} did not happen within ${ms / 1000} s; output:\n${output()}`);
}
