import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Verb } from "../verb.js";

/** The link emulator is Rust (replay/link); this verb hands its arguments over unchanged. */
export const NET_BINARY = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "replay", "target", "release", "pagepath-net");

export const netVerb: Verb = {
  name: "net",
  summary: "emulated links: bring a topology up or down, run commands in it, Mahimahi-style shells, plots",
  usage: "pagepath net <up|down|exec|status|shell|plot> ...   (pagepath net help for the details)",
  options: {},
  run: async () => 2,
  raw: (argv) => runNet(argv),
};

function runNet(argv: string[]): Promise<number> {
  if (!existsSync(NET_BINARY)) {
    process.stderr.write(`pagepath net: ${NET_BINARY} is missing; run scripts/install.sh to build it\n`);
    return Promise.resolve(1);
  }
  const child = spawn(NET_BINARY, argv, { stdio: "inherit" });
  // Ctrl-C reaches the emulator too (same process group); it cleans up and exits, and so do we.
  const ignore = () => {};
  const forward = () => child.kill("SIGTERM");
  process.on("SIGINT", ignore);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    child.on("error", (e) => {
      process.stderr.write(`pagepath net: ${e.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      process.off("SIGINT", ignore);
      process.off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 + 2 : 1));
    });
  });
}
