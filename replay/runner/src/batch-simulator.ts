import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Socket } from "node:net";
import { createInterface } from "node:readline";
import { relayedStderr } from "./relayed-stderr.js";

/** What a batch simulator's stderr keeps for an error message: its last words. */
const STDERR_KEPT = 4_000;

/**
 * One `pagepath-sim --batch` process, running one simulation at a time: no process to start per
 * load, and the recordings, certificates and TLS contexts it has made kept for the next
 * (replay/sim/src/kept.rs). Idle, it does not keep node alive.
 */
class BatchSimulator {
  private readonly child: ChildProcessWithoutNullStreams;
  private pending: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  private stderr = "";
  dead = false;

  constructor(binary: string) {
    this.child = spawn(binary, ["--batch"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (d) => (this.stderr = (this.stderr + d).slice(-STDERR_KEPT)));
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const p = this.pending;
      this.pending = null;
      this.idle();
      p?.resolve(line);
    });
    this.child.on("error", (e) => this.fail(new Error(`cannot run ${binary}: ${e.message}`)));
    this.child.on("close", (code, signal) => this.fail(new Error(`pagepath-sim exited with ${signal ?? code}: ${relayedStderr(this.stderr, "pagepath-sim") || "no report"}`)));
    // Its own EOF ends it when node goes: it only reads stdin.
    this.child.stdin.on("error", () => undefined);
    this.idle();
  }

  /** One simulation's report line; the process is killed if it takes longer than `guardMs`. */
  run(args: string[], guardMs: number): Promise<string> {
    this.stderr = "";
    this.child.ref();
    for (const s of this.pipes()) s.ref();
    const guard = setTimeout(() => this.child.kill("SIGKILL"), guardMs);
    return new Promise<string>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.stdin.write(JSON.stringify(args) + "\n");
    }).finally(() => clearTimeout(guard));
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
    const p = this.pending;
    this.pending = null;
    p?.reject(e);
  }

  kill(): void {
    this.dead = true;
    this.child.kill("SIGKILL");
  }
}

const idle = new Map<string, BatchSimulator[]>();

/**
 * Runs one simulation (pagepath-sim's arguments) in an idle batch simulator, or a new one: as many
 * processes as simulations run at once, each kept for the next. The report, or why there is none.
 */
export async function simulateInBatch<T>(binary: string, args: string[], guardMs: number): Promise<T> {
  const free = idle.get(binary) ?? [];
  idle.set(binary, free);
  const sim = free.pop() ?? new BatchSimulator(binary);
  let line: string;
  try {
    line = await sim.run(args, guardMs);
  } catch (e) {
    sim.kill();
    throw e;
  }
  if (!sim.dead) free.push(sim);
  const report = JSON.parse(line) as T & { error?: string };
  if (typeof report.error === "string") throw new Error(`pagepath-sim: ${report.error}`);
  return report;
}

/** Ends every idle batch simulator: the next simulation starts a process again and reads its page anew. */
export function stopBatchSimulators(): void {
  for (const free of idle.values()) for (const sim of free.splice(0)) sim.kill();
}
