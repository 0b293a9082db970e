import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { NetworkConfig, PathBytes, PathConfig } from "@pagepath/results";
import { atProcessEnd, tempDir } from "@pagepath/temp-dirs";
import { NET_BINARY, requireBinary } from "./binaries.js";
import { downAtProcessEnd, topologyTakenDown } from "./topology-lifetime.js";
import { relayedStderr } from "./relayed-stderr.js";

const run = promisify(execFile);

/** Where pagepath-net keeps a topology's state and counters (docs/formats/topology.md). */
export function netStateDir(): string {
  return process.env.PAGEPATH_NET_STATE ?? "/run/pagepath/net";
}

export interface Topology {
  name: string;
  /** Client-side addresses, path 0 first. */
  clientAddresses: string[];
  network: NetworkConfig;
}

/**
 * A topology brought up by `pagepath net up`, checked to be running; its network as far as the
 * state file tells (rates and delays; loss and queue are not in it, so they are null).
 */
export function readTopology(name: string): Topology {
  const file = join(netStateDir(), `${name}.json`);
  if (!existsSync(file)) throw new Error(`--net ${name}: no such topology is up (no ${file}); bring it up with: pagepath net up --name ${name} ...`);
  const state = JSON.parse(readFileSync(file, "utf8"));
  if (state.phase !== "up" || !alive(state.pid)) throw new Error(`--net ${name}: the topology is not up (phase ${state.phase}, emulator pid ${state.pid} ${alive(state.pid) ? "running" : "gone"})`);
  const paths = (state.paths as any[]).map((p): PathConfig => {
    const up = parseDirection(p.uplink);
    const down = parseDirection(p.downlink);
    const path: PathConfig = { upMbps: up.mbps, downMbps: down.mbps, rttMs: up.delayMs + down.delayMs, loss: null, queue: null };
    return p.backup ? { ...path, backup: true } : path;
  });
  return { name, clientAddresses: (state.paths as any[]).map((p) => p.clientAddr), network: { name, paths } };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** "5 Mbit/s, delay 10 ms" as pagepath-net describes a direction; a trace link has no one rate. */
function parseDirection(text: string): { mbps: number | null; delayMs: number } {
  const rate = /^([\d.]+) Mbit\/s/.exec(text);
  const delay = /delay ([\d.]+) ms/.exec(text);
  return { mbps: rate ? Number(rate[1]) : null, delayMs: delay ? Number(delay[1]) : 0 };
}

/** A network to bring up for a run: the same on every path. */
export interface NetworkSpec {
  name: string;
  paths: number;
  rateMbit: number;
  rttMs: number;
  loss: number;
  /** Bottleneck buffer in packets. */
  queuePackets: number;
  /** Its discipline: drop-tail unless given (RED with Table 3.4's thresholds of seed 001). */
  queueDiscipline?: "droptail" | "red";
  /** The index of a path kept as backup (MPTCP's endpoint flag; pagepath's multipath QUIC schedulers). */
  backup?: number;
}

/** The same link on every path; the bottleneck buffer defaults to one bandwidth-delay product, at least 16 packets. */
export function networkSpec(name: string, link: Omit<NetworkSpec, "name" | "queuePackets"> & { queuePackets?: number }): NetworkSpec {
  const bdpPackets = Math.ceil((link.rateMbit * 1e6 * (link.rttMs / 1000)) / 8 / 1500);
  return { name, ...link, queuePackets: link.queuePackets ?? Math.max(16, bdpPackets) };
}

/** The network of `spec`: its path repeated, the backup one marked. */
export function specNetwork(spec: NetworkSpec): NetworkConfig {
  const path: PathConfig = { upMbps: spec.rateMbit, downMbps: spec.rateMbit, rttMs: spec.rttMs, loss: spec.loss, queue: { discipline: spec.queueDiscipline ?? "droptail", packets: spec.queuePackets } };
  const paths = Array.from({ length: spec.paths }, (_, i) => (i === spec.backup ? { ...path, backup: true } : { ...path }));
  return { name: spec.name, paths };
}

/** Brings up topology `name` for `spec`; the caller must call topologyDown, even on failure. */
export function topologyUp(name: string, spec: NetworkSpec, seed: number): Promise<Topology> {
  return networkUp(name, specNetwork(spec), seed, process.cwd());
}

/**
 * The topology file (docs/formats/topology.md) for exactly the paths of `network`: rates or traces
 * (found relative to `baseDir`), RTT split evenly between the directions, loss and a drop-tail
 * buffer on both. `pagepath net up` brings it up; the simulator simulates it.
 */
export function topologyDocument(network: NetworkConfig, baseDir: string): object {
  const direction = (p: PathConfig, trace: string | undefined) => ({
    // A jittered delay is drawn once per run from the topology's seed (the run's).
    delayMs: p.rttJitter ? { uniform: [p.rttMs / 2 - (p.rttMs / 2) * p.rttJitter, p.rttMs / 2 + (p.rttMs / 2) * p.rttJitter] } : p.rttMs / 2,
    ...(trace ? { trace: resolve(baseDir, trace) } : p.downMbps === null ? {} : { rateMbit: p.downMbps }),
    ...(p.queue ? { queue: { type: p.queue.discipline, packets: p.queue.packets } } : {}),
    ...(p.loss ? { loss: p.loss } : {}),
  });
  const paths = network.paths.map((p, i) => ({
    name: `path${i}`,
    uplink: { ...direction(p, p.trace?.uplink), ...(p.upMbps !== null && !p.trace ? { rateMbit: p.upMbps } : {}) },
    downlink: direction(p, p.trace?.downlink),
    ...(p.backup ? { backup: true } : {}),
  }));
  return { schemaVersion: 1, description: `network ${network.name}`, paths };
}

/** Brings up topology `name` for `network` (topologyDocument); the caller must call topologyDown, even on failure. */
export async function networkUp(name: string, network: NetworkConfig, seed: number, baseDir: string): Promise<Topology> {
  await netVerb((file) => ["up", file, "--name", name, "--seed", String(seed)], name, network, baseDir);
  downAtProcessEnd(name);
  return { ...readTopology(name), network };
}

/** Runs `pagepath net` with the arguments `args` gives for a topology file of `network`, removed after. */
async function netVerb(args: (file: string) => string[], name: string, network: NetworkConfig, baseDir: string): Promise<void> {
  const dir = tempDir("topology");
  const file = join(dir, `${name}.topology.json`);
  writeFileSync(file, JSON.stringify(topologyDocument(network, baseDir)));
  let forget = () => {};
  try {
    const argv = args(file);
    await new Promise<void>((ok, fail) => {
      const child = execFile(requireBinary(NET_BINARY), argv, (e, _stdout, stderr) =>
        e ? fail(new Error(`pagepath net ${argv[0]} ${name} (network ${network.name}) failed: ${relayedStderr(stderr || e.message, "pagepath net")}`)) : ok(),
      );
      // If this process ends first (SIGTERM to it alone), `net` is told to stop: it takes down
      // what it brought up so far, which `net down` could not find before it is recorded.
      forget = atProcessEnd(() => void child.kill("SIGTERM"));
    });
  } finally {
    forget();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Gives running topology `name` the links of `network` with `seed`, as if brought up afresh with
 * them (`pagepath net reconfigure`: same paths and backups; counters, queues, random draws and the
 * kernel's TCP metrics start anew). Throws when the emulator refuses, saying why.
 */
export async function networkReconfigure(name: string, network: NetworkConfig, seed: number, baseDir: string): Promise<Topology> {
  await netVerb((file) => ["reconfigure", name, file, "--seed", String(seed)], name, network, baseDir);
  return { ...readTopology(name), network };
}

export async function topologyDown(name: string): Promise<void> {
  topologyTakenDown(name);
  await run(NET_BINARY, ["down", name]).catch(() => undefined);
  // Its counters were read before it went down; nobody else knows this private name.
  rmSync(join(netStateDir(), `${name}.stats.json`), { force: true });
}

/**
 * Bytes each path has delivered up to now in each direction: the emulator is asked (SIGUSR1) to
 * write its counters, and its answer is awaited (docs/formats/topology.md, Runtime state).
 */
export async function pathCounters(name: string): Promise<PathBytes[]> {
  const file = join(netStateDir(), `${name}.stats.json`);
  const { pid } = JSON.parse(readFileSync(join(netStateDir(), `${name}.json`), "utf8"));
  const read = () => {
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return undefined; // not written yet, or being replaced
    }
  };
  const asked = read()?.flushes ?? 0;
  process.kill(pid, "SIGUSR1");
  for (let waited = 0; ; waited += 1) {
    const stats = read();
    if (stats && stats.flushes > asked) return (stats.paths as any[]).map((p, path) => ({ path, bytesUp: p.uplink.deliveredBytes, bytesDown: p.downlink.deliveredBytes }));
    if (waited > 5000) throw new Error(`${file}: the emulator of topology ${name} (pid ${pid}) did not write its counters when asked`);
    await new Promise((ok) => setTimeout(ok, 1));
  }
}

/**
 * How long after a load to read the counters so that they include what the load's end set moving:
 * the client closes its connections as it ends, and the closing handshakes cross each path within
 * its round trip (the largest a jittered delay can draw); 10 ms more for the hosts to answer.
 */
export function settleMs(network: NetworkConfig): number {
  return Math.max(0, ...network.paths.map((p) => p.rttMs * (1 + (p.rttJitter ?? 0)))) + 10;
}

/** What the paths carried between two readings of pathCounters. */
export function counterDelta(before: PathBytes[], after: PathBytes[]): PathBytes[] {
  const minus = (a: number | null, b: number | null | undefined) => (a === null || b === null || b === undefined ? null : a - b);
  return after.map((a, i) => ({ path: a.path, bytesUp: minus(a.bytesUp, before[i]?.bytesUp), bytesDown: minus(a.bytesDown, before[i]?.bytesDown) }));
}
