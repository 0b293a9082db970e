import { spawn } from "node:child_process";
import { relayedStderr } from "./relayed-stderr.js";

/**
 * Runs one of pagepath's clients (pagepath-browser, pagepath-sim), which print their report as the
 * last line of stdout; the report, or why there is none, in the child's own words. `guardMs` kills
 * a child that hangs past its own timeout.
 */
export function reportLine<T>(command: string, args: string[], name: string, guardMs: number): Promise<T> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const guard = setTimeout(() => child.kill("SIGKILL"), guardMs);
  return new Promise((resolve, reject) => {
    child.on("error", (e) => reject(new Error(`cannot run ${command}: ${e.message}`)));
    child.on("close", (code) => {
      clearTimeout(guard);
      const line = out.trim().split("\n").at(-1) ?? "";
      if (line.startsWith("{")) return resolve(JSON.parse(line) as T);
      reject(new Error(`${name} exited with ${code}: ${relayedStderr(err, name) || "no report"}`));
    });
  });
}
