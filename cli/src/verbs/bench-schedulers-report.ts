import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PATH_ONLY_FLOOR, THROUGHPUT_REFERENCE, type SchedulersBenchResult } from "@pagepath/bench";
import { shownPath } from "../shown-path.js";

/** Packets per second of 1,200-byte QUIC packets at the two paths' 200 Mbit/s: what a decision's cost is paid per. */
const PACKETS_PER_SECOND = 200e6 / 8 / 1200;

const NOTES: Record<string, string> = {
  redundant: "every packet on both paths: half the useful capacity, by design",
};

const short = (reason: string) => (reason.length > 140 ? `${reason.slice(0, 140)}...` : reason);

/** `pagepath bench schedulers`' table, and its JSON in OUT/schedulers.json. */
export function reportSchedulers(r: SchedulersBenchResult, out: string): number {
  const cost = r.decisionCost;
  const first = cost[0];
  const lines = [
    `decision cost on the sans-IO interface (ns per decision with its acks and sends; median of ${first?.repetitions} replays of ${first?.decisions} decisions on a synthetic two-path sender; ratio to lowest-rtt)`,
    "  scheduler           1 stream: ns   ratio   20 streams: ns   ratio   core share at 200 Mbit/s",
  ];
  for (const one of cost.filter((c) => c.streams === 1)) {
    const many = cost.find((c) => c.streams === 20 && c.scheduler === one.scheduler);
    const share = many ? `${((many.nsPerDecision * PACKETS_PER_SECOND) / 1e7).toFixed(2)}%` : "";
    lines.push(
      `  ${one.scheduler.padEnd(18)} ${one.nsPerDecision.toFixed(0).padStart(13)} ${one.ratioToLowestRtt.toFixed(2).padStart(7)} ${(many?.nsPerDecision.toFixed(0) ?? "").padStart(16)} ${(many?.ratioToLowestRtt.toFixed(2) ?? "").padStart(7)} ${share.padStart(26)}`,
    );
  }
  const t = r.throughput;
  lines.push(
    `bulk throughput: ${t.bytes / 1e6} MB as 1 response and as 20 at once, over ${t.link.paths} paths of ${t.link.rateMbit} Mbit/s, ${t.link.rttMs} ms RTT, drop-tail ${t.link.queuePackets} packets (median of ${t.loads} loads each, in turns; ratio to tquic's ${THROUGHPUT_REFERENCE} on the same responses)`,
  );
  for (const row of t.rows) {
    if (row.kind === "reference") lines.push(`  ${row.streams} response${row.streams === 1 ? "" : "s"}:`, `  scheduler          kind           Mbit/s   ratio   runs min-max   client MB path 0/1   path-only floor ${PATH_ONLY_FLOOR}`);
    const floor = row.meetsFloor === null ? "" : row.meetsFloor ? "meets" : `BELOW${NOTES[row.scheduler] ? ` (${NOTES[row.scheduler]})` : ""}`;
    const spread = row.runsMbps.length ? `${Math.min(...row.runsMbps).toFixed(0)}-${Math.max(...row.runsMbps).toFixed(0)}` : "";
    const perPath = row.clientBytesPerPath?.map((b) => (b / 1e6).toFixed(1)).join("/") ?? "";
    const failed = row.failed.length ? `  ${row.failed.length} failed${row.skipped ? ` (${row.skipped} more not run)` : ""}: ${[...new Set(row.failed.map(short))].join("; ")}` : "";
    lines.push(`  ${`${row.scheduler}${row.family === "tquic" ? " (tquic)" : ""}`.padEnd(18)} ${row.kind.padEnd(12)} ${(row.mbps?.toFixed(1) ?? "-").padStart(8)} ${(row.ratio?.toFixed(3) ?? "-").padStart(7)} ${spread.padStart(14)} ${perPath.padStart(20)}   ${floor}${failed}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  mkdirSync(out, { recursive: true });
  const file = join(out, "schedulers.json");
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2) + "\n");
  process.stdout.write(`wrote ${shownPath(file)}\n`);
  // a load that did not finish is a fault of the stack under test, not a slow result
  return t.rows.some((row) => row.failed.length) ? 1 : 0;
}
