import { execFile } from "node:child_process";

export const DOT_BIN = "/usr/bin/dot";
/** Layout of a graph with thousands of nodes takes dot seconds; minutes means it is stuck. */
const DOT_TIMEOUT_MS = 5 * 60_000;
const DOT_MAX_OUTPUT = 1024 * 1024 * 1024;

/**
 * Runs Graphviz's dot on DOT text with `args` (e.g. ["-Tsvg"]); `what` names the input in errors.
 * The one place pagepath starts dot, for the CLI's drawings and the viewer's layouts.
 */
export function runDot(dot: string, args: string[], what: string): Promise<Buffer> {
  const how = `dot ${args.join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = execFile(DOT_BIN, args, { encoding: "buffer", timeout: DOT_TIMEOUT_MS, maxBuffer: DOT_MAX_OUTPUT }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === "ENOENT") return reject(new Error(`Graphviz's dot is not installed at ${DOT_BIN}; run scripts/install.sh`));
      if (e.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return reject(new Error(`${how} output for ${what} is over ${DOT_MAX_OUTPUT / 2 ** 20} MiB`));
      if (e.killed) return reject(new Error(`${how} on ${what} was stopped after ${DOT_TIMEOUT_MS / 1000} s`));
      const first = stderr.toString().split("\n").find((l) => l.trim()) ?? e.message;
      reject(new Error(`${how} failed on ${what}: ${first}`));
    });
    // dot may exit before reading all its input; the exit status is what gets reported.
    child.stdin?.on("error", () => {});
    child.stdin?.end(dot);
  });
}
