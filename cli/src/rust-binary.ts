import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `cargo build --release` in replay/ puts the Rust binaries. */
export function rustBinary(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "replay", "target", "release", name);
}

/** Runs a Rust binary with the terminal attached; Ctrl-C reaches it (same process group) and it cleans up. */
export function runRustBinary(label: string, binary: string, argv: string[]): Promise<number> {
  if (!existsSync(binary)) {
    process.stderr.write(`${label}: ${binary} is missing; run scripts/install.sh to build it\n`);
    return Promise.resolve(1);
  }
  const child = spawn(binary, argv, { stdio: "inherit" });
  const ignore = () => {};
  const forward = () => child.kill("SIGTERM");
  process.on("SIGINT", ignore);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    child.on("error", (e) => {
      process.stderr.write(`${label}: ${e.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      process.off("SIGINT", ignore);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 + 2 : 1));
    });
  });
}
