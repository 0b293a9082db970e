import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { downAtProcessEnd, topologyTakenDown } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";

const run = promisify(execFile);
const RELEASE = join(process.cwd(), "replay", "target", "release");
export const NET = join(RELEASE, "pagepath-net");
export const PROBE = join(RELEASE, "pagepath-netprobe");
export const SERVER = "10.200.0.1";

/**
 * Brings a topology up from flags or a file; throws with the emulator's own message. It is taken
 * down when the test process ends, also on Ctrl-C, unless netDown did it first.
 */
export async function netUp(name: string, args: string[]): Promise<void> {
  await run(NET, ["up", "--name", name, ...args]).catch((e) => {
    throw new Error(`pagepath net up ${name} failed: ${e.stderr || e.message}`);
  });
  downAtProcessEnd(name);
}

export async function netDown(name: string): Promise<void> {
  topologyTakenDown(name);
  await run(NET, ["down", name]).catch(() => undefined);
}

/** Runs fn with the topology up, and takes it down even when fn throws. */
export async function withTopology<T>(name: string, args: string[], fn: () => Promise<T>): Promise<T> {
  await netUp(name, args);
  try {
    return await fn();
  } finally {
    await netDown(name);
  }
}

/** A probe run inside one side of a topology; resolves to its JSON report. */
export function probe(name: string, side: "client" | "server", args: string[]): { child: ChildProcess; done: Promise<any> } {
  const child = spawn(NET, ["exec", name, side, "--", PROBE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const done = new Promise((resolve, reject) => {
    // "close", not "exit": a child's exit can come before the last of its output has been read,
    // and on a busy machine the echo server's report was then found empty.
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`probe ${args.join(" ")} in ${name}/${side} exited ${code}: ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1)!));
      } catch {
        reject(new Error(`probe ${args.join(" ")}: no JSON report in ${JSON.stringify(out)} (stderr ${err.trim()})`));
      }
    });
  });
  return { child, done };
}

/** A server-side probe and a client-side probe, the server started first. */
export async function pair(name: string, server: string[], client: string[]): Promise<{ server: any; client: any }> {
  const s = probe(name, "server", server);
  await new Promise((r) => setTimeout(r, 300));
  const c = probe(name, "client", client);
  const [sv, cv] = await Promise.all([s.done, c.done]);
  return { server: sv, client: cv };
}

/** The emulator's counters for a topology (per path and direction), as `status --json` reads them. */
export function netStats(name: string): any {
  return JSON.parse(readFileSync(join(process.env.PAGEPATH_NET_STATE ?? "/run/pagepath/net", `${name}.stats.json`), "utf8"));
}

export async function netnsList(): Promise<string[]> {
  const { stdout } = await run("ip", ["netns", "list"]);
  return stdout.split("\n").map((l) => l.split(" ")[0]!).filter(Boolean);
}

export function writeTemp(label: string, file: string, text: string): string {
  const path = join(tempDir(`net-${label}`), file);
  writeFileSync(path, text);
  return path;
}

/** Bytes a full-size TCP segment carries per 1,504-byte opportunity (IP 20 + TCP 32 with timestamps). */
export const TCP_PAYLOAD_SHARE = 1448 / 1504;
