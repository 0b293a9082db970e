import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MultipathCostResult } from "@pagepath/bench";
import { shownPath } from "../shown-path.js";

/** Where the CPU ran out: a process at (nearly) a whole core, or the machine at all of its. */
const SATURATED = 0.9;

/** `pagepath bench multipath`'s table, and its JSON in OUT/multipath.json. */
export function reportMultipathCost(r: MultipathCostResult, out: string): number {
  const lines = [
    `cost of multipath in the stack: ${r.bytes / 1e6} MB over HTTP/3 (tquic) on paths without a rate limit, ${r.path.rttMs} ms RTT, through the link emulator (median of ${r.loads} loads each, in turns; ratio to single-path QUIC; cores = CPU seconds per second of the load, of ${r.cores})`,
    "  configuration             Mbit/s   ratio   runs min-max   client MB per path    cores: client  server  emulator  machine   saturated",
  ];
  for (const row of r.rows) {
    const spread = row.runsMbps.length ? `${Math.min(...row.runsMbps).toFixed(0)}-${Math.max(...row.runsMbps).toFixed(0)}` : "";
    const perPath = row.pathBytes?.map((b) => (b / 1e6).toFixed(1)).join("/") ?? "";
    const c = row.cpu;
    const saturated = c ? [...(["client", "server", "emulator"] as const).filter((k) => c[k] >= SATURATED), ...(c.machine >= SATURATED * r.cores ? ["machine"] : [])].join(", ") || "none" : "";
    const failed = row.failed.length ? `  ${row.failed.length} failed: ${[...new Set(row.failed)].join("; ")}` : "";
    lines.push(
      `  ${row.label.padEnd(24)} ${(row.mbps?.toFixed(0) ?? "-").padStart(7)} ${(row.ratio?.toFixed(3) ?? "-").padStart(7)} ${spread.padStart(14)} ${perPath.padStart(20)}   ${(c?.client.toFixed(2) ?? "-").padStart(13)} ${(c?.server.toFixed(2) ?? "-").padStart(7)} ${(c?.emulator.toFixed(2) ?? "-").padStart(9)} ${(c?.machine.toFixed(2) ?? "-").padStart(8)}   ${saturated}${failed}`,
    );
  }
  process.stdout.write(lines.join("\n") + "\n");
  mkdirSync(out, { recursive: true });
  const file = join(out, "multipath.json");
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2) + "\n");
  process.stdout.write(`wrote ${shownPath(file)}\n`);
  return r.rows.some((row) => row.failed.length) ? 1 : 0;
}
