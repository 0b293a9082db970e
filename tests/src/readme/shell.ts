import { spawn, type ChildProcess } from "node:child_process";

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line in bash, as a user pasting it would, in `cwd`; its own process group. */
export function runShell(text: string, cwd: string, timeoutMs: number): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", text], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n(the README test stopped it after ${timeoutMs} ms)`;
      stopGroup(child);
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A command that runs until stopped (a server, a worker): started, and ready once its output says so. */
export class Running {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  private exit: Promise<number | null>;

  constructor(
    readonly text: string,
    cwd: string,
  ) {
    this.child = spawn("bash", ["-c", text], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    this.child.stdout!.on("data", (d) => (this.stdout += d));
    this.child.stderr!.on("data", (d) => (this.stderr += d));
    this.exit = new Promise((r) => this.child.on("close", (code) => r(code)));
  }

  /** Waits until stdout matches `ready`; throws with what it printed if it ends or takes too long. */
  async ready(ready: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.exit.then(() => (ended = true));
    for (;;) {
      const m = this.stdout.match(ready);
      if (m) return m;
      if (ended || Date.now() > deadline) throw new Error(`${this.text}: ${ended ? "ended" : `not ready after ${timeoutMs} ms`} before printing ${ready}\n${this.stdout}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Ctrl-C, as its user would stop it; then SIGKILL if it does not go. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    stopGroup(this.child, "SIGINT");
    const gone = await Promise.race([this.exit.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]);
    if (!gone) stopGroup(this.child, "SIGKILL");
    await this.exit;
  }
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}
