/**
 * The kernel's MPTCP packet schedulers. The list of them is the kernel's (every network namespace
 * sees the same registered schedulers), the choice is per namespace (net.mptcp.scheduler), so a run
 * sets it where its connections are made: the topology's client and server namespaces.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { NET_BINARY, requireBinary } from "./binaries.js";
import { relayedStderr } from "./relayed-stderr.js";

const AVAILABLE = "/proc/sys/net/mptcp/available_schedulers";

/**
 * net.mptcp.available_schedulers; a kernel without the sysctl (before Linux 6.6) has its one
 * built-in scheduler, which pagepath calls `default` as later kernels do.
 */
export function mptcpSchedulers(): string[] {
  if (!existsSync(AVAILABLE)) return ["default"];
  return readFileSync(AVAILABLE, "utf8").trim().split(/\s+/).filter(Boolean);
}

/**
 * Sets net.mptcp.scheduler in the topology's client and server namespaces. Written every time, the
 * default too, so that a topology reused across runs (`--net NAME`) keeps no earlier run's choice.
 */
export async function setMptcpScheduler(topology: string, name: string): Promise<void> {
  if (!existsSync(AVAILABLE)) return;
  for (const side of ["client", "server"]) {
    try {
      await promisify(execFile)(requireBinary(NET_BINARY), ["exec", topology, side, "--", "sysctl", "-qw", `net.mptcp.scheduler=${name}`]);
    } catch (e) {
      const stderr = (e as { stderr?: string }).stderr ?? (e as Error).message;
      throw new Error(`cannot set net.mptcp.scheduler=${name} in the ${side} namespace of ${topology}: ${relayedStderr(stderr, "sysctl")}`);
    }
  }
}
