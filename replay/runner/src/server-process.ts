import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { relayedStderr } from "./relayed-stderr.js";

export const REPLAY_SERVER = fileURLToPath(new URL("../../../target/release/pagepath-server", import.meta.url));

export interface RunningReplayServer {
  /** The process started: the server, or the first command of the prefix it runs under. */
  pid: number;
  /** SIGTERM (SIGKILL after 10 s), then its exit code: 0 unless it failed. */
  stop(): Promise<number | null>;
  stderr(): string;
}

/** The server exited before it was ready: its exit code and what it said. */
export class ReplayServerExited extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`pagepath-server exited with ${code}: ${relayedStderr(stderr, "pagepath-server")}`);
  }
}

/**
 * `pagepath-server serve ARGS` as our child, run through `prefix` if given (e.g. `pagepath-net
 * exec NAME server --` to run it in a topology's server namespace); resolves once it prints its
 * ready line, rejects with ReplayServerExited if it exits first.
 */
export function startReplayServer(serveArgs: string[], prefix: string[] = [], readyTimeoutMs = 60_000): Promise<RunningReplayServer> {
  if (!existsSync(REPLAY_SERVER)) throw new Error(`${REPLAY_SERVER} is missing; build it with: cargo build --release --manifest-path replay/Cargo.toml`);
  const [command, ...args] = [...prefix, REPLAY_SERVER, "serve", ...serveArgs];
  const child = spawn(command!, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((ok) => child.on("close", (code) => ok(code)));
  const running: RunningReplayServer = {
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    stderr: () => stderr.trim(),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`pagepath-server not ready after ${readyTimeoutMs / 1000} s: ${relayedStderr(stderr, "pagepath-server")}`));
    }, readyTimeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${e.message}`));
    });
    child.stdout.on("data", (d) => {
      stdout += d;
      if (!stdout.includes('"ready":true')) return;
      clearTimeout(timer);
      resolve(running);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new ReplayServerExited(code, stderr.trim()));
    });
  });
}
