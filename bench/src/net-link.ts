import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * The link emulator against the kernel without it: the most one path carries through the
 * emulator as a ratio to a bare veth pair, the emulator's CPU time per packet, and how far its
 * timing strays at 10, 100 and 1,000 Mbit/s.
 */
const run = promisify(execFile);
const RELEASE = join(process.cwd(), "replay", "target", "release");
const NET = join(RELEASE, "pagepath-net");
const PROBE = join(RELEASE, "pagepath-netprobe");
const STATE = process.env.PAGEPATH_NET_STATE ?? "/run/pagepath/net";
const SERVER = "10.200.0.1";

/** netprobe tcp's sender limits (replay/probe/src/tcp_limits.rs). */
export interface SenderLimits {
  busyUs: number;
  rwndLimitedUs: number;
  sndbufLimitedUs: number;
  srttUs: number;
  minRttUs: number;
  cwnd: number;
  retransmittedSegments: number;
}

export interface NetBenchResult {
  seconds: number;
  vethMbps: number;
  vethNoOffloadMbps: number;
  emulatorMbps: number;
  ratio: number;
  ratioNoOffload: number;
  cpuUsPerPacket: number;
  rates: Array<{ mbit: number; goodputMbps: number; goodputShare: number; latenessP50Us: number; latenessP99Us: number; opportunityUs: number; owdExtraP50Us: number; owdExtraP99Us: number; readOwdExtraP50Us: number; readOwdExtraP99Us: number; probeLoss: number }>;
  /**
   * Two paths of 1,000 Mbit/s, a saturating TCP transfer down each at once: what each carried, the
   * emulator's lateness on each, and what held each sender back (TCP_INFO), so that a shortfall
   * can be told apart: the link's (congestion window) or the hosts' (a window or buffer).
   */
  twoPaths: { mbit: number; goodputMbps: number[]; latenessP99Us: number[]; senders: (SenderLimits | null)[] };
}

function json(stdout: string): any {
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

/** A receiver in namespace `recvNs`, a sender in `sendNs`; both through `ip netns exec`. */
async function transfer(recvNs: string, sendNs: string, addr: string, seconds: number, recvArgs: string[] = [], sendArgs: string[] = []): Promise<{ recv: any; send: any }> {
  const listen = spawn("ip", ["netns", "exec", sendNs, PROBE, "tcp", "--listen", `${addr}:7100`, "--send", String(seconds), ...sendArgs], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  listen.stdout!.on("data", (d) => (out += d));
  const sent = new Promise<any>((ok) => listen.on("exit", () => ok(out ? json(out) : null)));
  await new Promise((r) => setTimeout(r, 300));
  const recv = json((await run("ip", ["netns", "exec", recvNs, PROBE, "tcp", "--connect", `${addr}:7100`, "--recv", ...recvArgs])).stdout);
  return { recv, send: await sent };
}

async function veth(seconds: number, offloads: boolean): Promise<number> {
  const [a, b] = ["ppbench-a", "ppbench-b"];
  const ip = (...args: string[]) => run("ip", args);
  await ip("netns", "del", a).catch(() => undefined);
  await ip("netns", "del", b).catch(() => undefined);
  try {
    await ip("netns", "add", a);
    await ip("netns", "add", b);
    await ip("link", "add", "ppbv-a", "netns", a, "type", "veth", "peer", "name", "ppbv-b", "netns", b);
    await ip("-n", a, "addr", "add", "10.99.0.1/24", "dev", "ppbv-a");
    await ip("-n", b, "addr", "add", "10.99.0.2/24", "dev", "ppbv-b");
    for (const [ns, dev] of [[a, "ppbv-a"], [b, "ppbv-b"]] as const) {
      await ip("-n", ns, "link", "set", dev, "up", "mtu", "1500");
      // Without offloads the veth moves 1,500-byte packets one by one, as the TUN path must.
      if (!offloads) await run("ip", ["netns", "exec", ns, "ethtool", "-K", dev, "gso", "off", "tso", "off", "gro", "off"]);
    }
    const { recv } = await transfer(a, b, "10.99.0.2", seconds);
    return (recv.bytes * 8) / (recv.seconds * 1e6);
  } finally {
    await ip("netns", "del", a).catch(() => undefined);
    await ip("netns", "del", b).catch(() => undefined);
  }
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

async function withNet<T>(name: string, args: string[], fn: () => Promise<T>): Promise<T> {
  await run(NET, ["up", "--name", name, ...args]);
  try {
    return await fn();
  } finally {
    await run(NET, ["down", name]).catch(() => undefined);
  }
}

const stats = (name: string, path = 0) => JSON.parse(readFileSync(join(STATE, `${name}.stats.json`), "utf8")).paths[path];
const state = (name: string) => JSON.parse(readFileSync(join(STATE, `${name}.json`), "utf8"));

export async function benchNet(seconds: number, log: (line: string) => void): Promise<NetBenchResult> {
  const steps = 3 + 3 + 1;
  let step = 0;
  const progress = (what: string) => log(`[${++step}/${steps}] ${what}`);
  progress("direct veth pair, no emulation");
  const vethMbps = await veth(seconds, true);
  progress("direct veth pair without segmentation offloads");
  const vethNoOffloadMbps = await veth(seconds, false);
  progress("through the emulator, no rate limit or delay");
  const { emulatorMbps, cpuUsPerPacket } = await withNet("bnetmax", ["--paths", "1"], async () => {
    const pid = state("bnetmax").pid;
    const before = cpuTicks(pid);
    const { recv } = await transfer(state("bnetmax").clientNs, state("bnetmax").serverNs, SERVER, seconds);
    const ticks = cpuTicks(pid) - before;
    await new Promise((r) => setTimeout(r, 400));
    const s = stats("bnetmax");
    const packets = s.downlink.deliveredPackets + s.uplink.deliveredPackets;
    return { emulatorMbps: (recv.bytes * 8) / (recv.seconds * 1e6), cpuUsPerPacket: (ticks * 1e6) / 100 / Math.max(1, packets) };
  });
  const rates: NetBenchResult["rates"] = [];
  for (const mbit of [10, 100, 1000]) {
    progress(`${mbit} Mbit/s, 10 ms one-way: saturating TCP, then a UDP probe at half the rate`);
    const name = `bnet${mbit}`;
    rates.push(await withNet(name, ["--delay-ms", "10", "--rate-mbit", String(mbit), "--queue", "droptail:bdp=1"], async () => {
      const s = state(name);
      const { recv } = await transfer(s.clientNs, s.serverNs, SERVER, seconds);
      const lateness = stats(name).downlink.lateness;
      // A paced UDP stream at half the rate never queues: its one-way delay should be the
      // configured 10 ms plus the wait for the next opportunity; beyond that is the emulator's error.
      // Measured to the kernel's arrival stamp; to the probe's read it also holds the probe's own
      // wait for a core, which the emulator did not cause.
      const listen = spawn("ip", ["netns", "exec", s.clientNs, PROBE, "udp-recv", "--listen", `${s.paths[0].clientAddr}:7101`, "--idle-timeout", "2"], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      listen.stdout!.on("data", (d) => (out += d));
      const received = new Promise<any>((ok) => listen.on("exit", () => ok(json(out))));
      await new Promise((r) => setTimeout(r, 300));
      await run("ip", ["netns", "exec", s.serverNs, PROBE, "udp-send", "--connect", `${s.paths[0].clientAddr}:7101`, "--rate-mbit", String(mbit / 2), "--size", "1472", "--seconds", String(Math.min(seconds, 3)), "--no-catch-up"]);
      const udp = await received;
      // The model itself adds the wait for the next delivery opportunity (0 to one interval).
      const intervalUs = (1504 * 8) / mbit;
      const goodputMbps = (recv.bytes * 8) / (recv.seconds * 1e6);
      return {
        mbit, goodputMbps, goodputShare: goodputMbps / (mbit * (1448 / 1504)),
        latenessP50Us: lateness.p50Us, latenessP99Us: lateness.p99Us,
        opportunityUs: intervalUs, owdExtraP50Us: udp.owdUs.p50 - 10_000, owdExtraP99Us: udp.owdUs.p99 - 10_000,
        readOwdExtraP50Us: udp.readOwdUs.p50 - 10_000, readOwdExtraP99Us: udp.readOwdUs.p99 - 10_000, probeLoss: udp.lossRate,
      };
    }));
  }
  progress("two paths of 1000 Mbit/s, 10 ms one-way: a saturating TCP transfer down each at once");
  const twoPaths = await withNet("bnet2x", ["--paths", "2", "--no-mptcp", "--delay-ms", "10", "--rate-mbit", "1000", "--queue", "droptail:bdp=1"], async () => {
    const s = state("bnet2x");
    // The receivers listen on the client's address of each path; the senders connect to them from
    // the server's side, whose route to each address is that path.
    const down = await Promise.all(s.paths.map((p: { clientAddr: string }) => transferTo(s.clientNs, s.serverNs, p.clientAddr, seconds)));
    await new Promise((r) => setTimeout(r, 400));
    return { mbit: 1000, goodputMbps: down.map((d) => d.mbps), latenessP99Us: s.paths.map((_: unknown, i: number) => stats("bnet2x", i).downlink.lateness.p99Us), senders: down.map((d) => d.sender) };
  });
  return { seconds, vethMbps, vethNoOffloadMbps, emulatorMbps, ratio: emulatorMbps / vethMbps, ratioNoOffload: emulatorMbps / vethNoOffloadMbps, cpuUsPerPacket, rates, twoPaths };
}

/** Mbit/s of a transfer from `sendNs` to a receiver listening at `addr` in `recvNs`. */
async function transferTo(recvNs: string, sendNs: string, addr: string, seconds: number): Promise<{ mbps: number; sender: SenderLimits | null }> {
  const listen = spawn("ip", ["netns", "exec", recvNs, PROBE, "tcp", "--listen", `${addr}:7100`, "--recv"], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  listen.stdout!.on("data", (d) => (out += d));
  const received = new Promise<any>((ok) => listen.on("exit", () => ok(out ? json(out) : null)));
  await new Promise((r) => setTimeout(r, 300));
  const sent = await run("ip", ["netns", "exec", sendNs, PROBE, "tcp", "--connect", `${addr}:7100`, "--send", String(seconds)]);
  const recv = await received;
  if (!recv) throw new Error(`no report from the receiver at ${addr}`);
  return { mbps: (recv.bytes * 8) / (recv.seconds * 1e6), sender: json(sent.stdout).limits ?? null };
}
