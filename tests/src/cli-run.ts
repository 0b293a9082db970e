import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../../cli/bin/pagepath.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the pagepath CLI as a user would, without blocking this process (which may be serving the site).
 * `wrapper` is a command the CLI runs under, such as UNPRIVILEGED.
 */
export function runCli(args: string[], timeoutMs = 180_000, env: Record<string, string> = {}, wrapper: string[] = [], cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...wrapper, process.execPath, CLI, ...args];
    const child = spawn(command!, rest, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`pagepath ${args.join(" ")} ran past ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs what follows as nobody (uid and gid 65534, no groups): util-linux's setpriv, in Debian's base system. */
export const UNPRIVILEGED = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
