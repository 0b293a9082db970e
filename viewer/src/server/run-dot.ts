import { execFile } from "node:child_process";

export const DOT_BIN = "/usr/bin/dot";
/** Graphs of thousands of nodes take dot seconds; a minute means the settings are wrong for it. */
const DOT_TIMEOUT_MS = 120_000;
const DOT_MAX_OUTPUT = 512 * 1024 * 1024;

/** Runs Graphviz's dot on DOT text; `what` names the input in errors. */
export function runDot(dot: string, args: string[], what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(DOT_BIN, args, { timeout: DOT_TIMEOUT_MS, maxBuffer: DOT_MAX_OUTPUT }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === "ENOENT") return reject(new Error(`Graphviz's dot is not installed at ${DOT_BIN}; run scripts/install.sh`));
      if (e.killed) return reject(new Error(`dot on ${what} was stopped after ${DOT_TIMEOUT_MS / 1000} s`));
      const first = stderr.split("\n").find((l) => l.trim()) ?? e.message;
      reject(new Error(`dot failed on ${what}: ${first}`));
    });
    // dot may exit before reading all its input; the exit status is what gets reported.
    child.stdin?.on("error", () => {});
    child.stdin?.end(dot);
  });
}
