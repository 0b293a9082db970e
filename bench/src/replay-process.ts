import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REPLAY_SERVER = fileURLToPath(new URL("../../../replay/target/release/pagepath-server", import.meta.url));

export interface RunningReplayServer {
  /** SIGTERM, then its exit code: 0 unless it failed. */
  stop(): Promise<number | null>;
  stderr(): string;
}

/** `pagepath-server serve` as our child; resolves when it prints its ready line. */
export function startReplayServer(recording: string, out: string, protocol: "http1" | "h2", firstAddress: string): Promise<RunningReplayServer> {
  if (!existsSync(REPLAY_SERVER)) throw new Error(`${REPLAY_SERVER} is missing; build it with: cargo build --release --manifest-path replay/Cargo.toml`);
  const args = ["serve", recording, "--out", out, "--protocol", protocol, "--transport", "tcp", "--delays", "zero", "--first-address", firstAddress];
  const child = spawn(REPLAY_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((ok) => child.on("close", (code) => ok(code)));
  const running: RunningReplayServer = {
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
      reject(new Error(`pagepath-server not ready after 30 s: ${stderr.trim()}`));
    }, 30_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${REPLAY_SERVER}: ${e.message}`));
    });
    child.stdout.on("data", (d) => {
      stdout += d;
      if (!stdout.includes('"ready":true')) return;
      clearTimeout(timer);
      resolve(running);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`pagepath-server ${args.join(" ")} exited with ${code}: ${stderr.trim()}`));
    });
  });
}
