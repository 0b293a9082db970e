import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { netnsList } from "./net-topology.js";

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

/** Processes that inherited `mark` (PAGEPATH_TEST_MARK) in their environment: a command's and everything it started, wherever they moved. */
export function marked(mark: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`PAGEPATH_TEST_MARK=${mark}`)) continue;
      found.push({ pid: Number(pid), cmdline: readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim() });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A mark for `marked`, unique to this call. */
export function newMark(what: string): string {
  return `${what}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Nothing that carried `mark` is left, given a moment for the kernel to reap what was killed. */
export async function assertNoneMarked(mark: string, output: () => string): Promise<void> {
  await until("no process of the command left", () => (marked(mark).length === 0 ? true : undefined), () => `${marked(mark).map((p) => `${p.pid} ${p.cmdline}`).join("\n")}\n${output()}`, 5000);
}

/** Topology `name`'s namespaces, state file and links are gone. */
export async function assertTopologyGone(name: string): Promise<void> {
  const namespaces = await netnsList();
  assert.ok(!namespaces.some((n) => n.startsWith(`pp-${name}-`)), `topology ${name}'s namespaces are left: ${namespaces.join(", ")}`);
  assert.ok(!existsSync(join("/run/pagepath/net", `${name}.json`)), `topology ${name}'s state is left in /run/pagepath/net`);
  const links = spawnSync("ip", ["-o", "link"], { encoding: "utf8" }).stdout;
  assert.ok(!links.includes(name), `topology ${name}'s links are left:\n${links}`);
}
