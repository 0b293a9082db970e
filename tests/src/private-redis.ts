import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as { port: number }).port;
  await new Promise((ok) => server.close(ok));
  return port;
}

export interface Redis {
  url: string;
  port: number;
  /** Kills it (SIGKILL), as a crash would, and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (it keeps nothing on disk, as the docs' example), unless it runs. */
  restart(): Promise<void>;
  stop(): void;
}

/** A private Redis on a free loopback port that keeps nothing on disk. */
export async function startRedis(dir: string): Promise<Redis> {
  const port = await freePort();
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async kill() {
      const gone = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGKILL");
      await gone;
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null) return;
      child = await launch(port, dir);
    },
    stop: () => child.kill("SIGKILL"),
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        ok();
      }
    });
    child.on("exit", (code) => fail(new Error(`redis-server on port ${port} exited with ${code}: ${out}`)));
  });
  return child;
}
