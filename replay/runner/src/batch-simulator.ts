import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Socket } from "node:net";
import { createInterface } from "node:readline";
import { relayedStderr } from "./relayed-stderr.js";

/** What a batch simulator's stderr keeps for an error message: its last words. */
const STDERR_KEPT = 4_000;

/** Simulations sent to one process ahead of the one it runs: its next starts as soon as it is done. */
const AHEAD = 1;

/**
 * A simulation that had not started when its process died for another's (a hang, a crash): it
 * runs again in another process, and is not a failed run.
 */
class NotStarted extends Error {}

interface Pending {
  resolve: (line: string) => void;
  reject: (e: Error) => void;
  guardMs: number;
}

/**
 * One `pagepath-sim --batch` process, running one simulation at a time, in the order they were
 * sent: no process to start per load, and the recordings, certificates and TLS contexts it has
 * made kept for the next (replay/sim/src/kept.rs). The next simulation is sent while one runs, so
 * that the process does not wait while node takes in a report and prepares the next run. Idle, it
 * does not keep node alive.
 */
class BatchSimulator {
  private readonly child: ChildProcessWithoutNullStreams;
  /** The running simulation first. */
  private readonly pending: Pending[] = [];
  private guard: NodeJS.Timeout | undefined;
  private stderr = "";
  dead = false;

  constructor(binary: string) {
    this.child = spawn(binary, ["--batch"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (d) => (this.stderr = (this.stderr + d).slice(-STDERR_KEPT)));
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const done = this.pending.shift();
      this.stderr = "";
      this.startGuard();
      if (this.pending.length === 0) this.idle();
      done?.resolve(line);
    });
    this.child.on("error", (e) => this.fail(new Error(`cannot run ${binary}: ${e.message}`)));
    this.child.on("close", (code, signal) => this.fail(new Error(`pagepath-sim exited with ${signal ?? code}: ${relayedStderr(this.stderr, "pagepath-sim") || "no report"}`)));
    // Its own EOF ends it when node goes: it only reads stdin.
    this.child.stdin.on("error", () => undefined);
    this.idle();
  }

  /** Simulations sent and not answered, the running one included. */
  get load(): number {
    return this.pending.length;
  }

  /** One simulation's report line; the process is killed if it runs longer than `guardMs`. */
  run(args: string[], guardMs: number): Promise<string> {
    this.child.ref();
    for (const s of this.pipes()) s.ref();
    return new Promise<string>((resolve, reject) => {
      this.pending.push({ resolve, reject, guardMs });
      if (this.pending.length === 1) this.startGuard();
      this.child.stdin.write(JSON.stringify(args) + "\n");
    });
  }

  /** The running simulation's guard, from when it starts: when the one before it answered. */
  private startGuard(): void {
    clearTimeout(this.guard);
    const running = this.pending[0];
    this.guard = running && setTimeout(() => this.child.kill("SIGKILL"), running.guardMs);
  }

  /** A child's pipes are sockets, which can stop holding node's event loop open. */
  private pipes(): Socket[] {
    return [this.child.stdin, this.child.stdout, this.child.stderr] as unknown as Socket[];
  }

  private idle(): void {
    this.child.unref();
    for (const s of this.pipes()) s.unref();
  }

  private fail(e: Error): void {
    this.dead = true;
    clearTimeout(this.guard);
    const [running, ...waiting] = this.pending.splice(0);
    running?.reject(e);
    for (const w of waiting) w.reject(new NotStarted(e.message));
  }

  kill(): void {
    this.dead = true;
    this.child.kill("SIGKILL");
  }
}

const processes = new Map<string, BatchSimulator[]>();
let processLimit = Number.POSITIVE_INFINITY;

/**
 * At most `n` batch processes from now on, each sent up to AHEAD simulations ahead of the one it
 * runs; a sweep sets its workers and runs up to `simulationsAtOnce(n)` cells at a time.
 */
export function limitBatchSimulators(n: number): void {
  processLimit = Math.max(1, n);
}

/** The simulations in flight that keep `processes` batch processes busy. */
export const simulationsAtOnce = (processes: number) => processes * (1 + AHEAD);

/**
 * Runs one simulation (pagepath-sim's arguments) in a batch process: an idle one, else a new one
 * while there are fewer than the limit, else behind the running simulation of the least loaded.
 * Each process is kept for the next. The report, or why there is none.
 */
export async function simulateInBatch<T>(binary: string, args: string[], guardMs: number): Promise<T> {
  const all = processes.get(binary) ?? [];
  processes.set(binary, all);
  const live = all.filter((p) => !p.dead);
  all.splice(0, all.length, ...live);
  let sim = live.reduce<BatchSimulator | undefined>((least, p) => (least === undefined || p.load < least.load ? p : least), undefined);
  if (sim === undefined || (sim.load > 0 && live.length < processLimit)) {
    sim = new BatchSimulator(binary);
    all.push(sim);
  }
  let line: string;
  try {
    line = await sim.run(args, guardMs);
  } catch (e) {
    if (e instanceof NotStarted) return simulateInBatch<T>(binary, args, guardMs);
    sim.kill();
    throw e;
  }
  const report = JSON.parse(line) as T & { error?: string };
  if (typeof report.error === "string") throw new Error(`pagepath-sim: ${report.error}`);
  return report;
}

/** Ends every idle batch simulator: the next simulation starts a process again and reads its page anew. */
export function stopBatchSimulators(): void {
  for (const all of processes.values()) {
    for (const sim of all.splice(0)) {
      if (sim.load === 0) sim.kill();
      else all.push(sim);
    }
  }
}
