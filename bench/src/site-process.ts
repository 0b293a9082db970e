import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface SiteProcess {
  entry: string;
  hostResolverRules: string;
  spkiHash: string;
  stop(): Promise<void>;
}

const CLI = fileURLToPath(new URL("../../../cli/bin/pagepath.js", import.meta.url));

/**
 * A fixture site served by its own process (`pagepath serve`), so that the benchmark's CDP
 * traffic and the servers do not share one event loop: a page's load time must not include the
 * profiler's own message handling delaying the server's responses.
 */
export async function startSiteProcess(site: string): Promise<SiteProcess> {
  const child: ChildProcess = spawn(process.execPath, [CLI, "serve", site], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((ok, fail) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", (l) => {
      rl.close();
      ok(l);
    });
    child.once("exit", (code) => fail(new Error(`pagepath serve ${site} exited with ${code}`)));
  });
  const info = JSON.parse(line) as Omit<SiteProcess, "stop">;
  return {
    ...info,
    stop: () =>
      new Promise<void>((ok) => {
        child.once("exit", () => ok());
        child.kill("SIGTERM");
      }),
  };
}
