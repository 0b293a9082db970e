import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { networkSpec, rootRefusal, runReplay, topologyDown, topologyUp } from "@pagepath/runner";
import type { RunResult } from "@pagepath/results";
import { shownPath } from "../shown-path.js";

const LINK = networkSpec("10mbit-40ms", { paths: 1, rateMbit: 10, rttMs: 40, loss: 0 });

/**
 * The demo's replay: the recorded page served by the replay servers over HTTP/2, through one
 * emulated 10 Mbit/s, 40 ms link, loaded by the emulated browser and by Chromium. Lines to print.
 */
export async function demoReplays(graphFile: string, out: string): Promise<string[]> {
  const refusal = rootRefusal();
  if (refusal !== null) return [`replay: skipped; ${refusal}`];
  const net = `demo${process.pid % 10_000}`;
  const topology = await topologyUp(net, LINK, 1);
  const lines = [`replay over an emulated link (${LINK.rateMbit} Mbit/s, ${LINK.rttMs} ms RTT), HTTP/2:`];
  try {
    for (const client of ["emulated", "chromium"] as const) {
      const resultFile = join(out, "runs", `${client}.json`);
      mkdirSync(join(out, "runs"), { recursive: true });
      const run: RunResult = await runReplay({
        graphFile,
        client,
        configuration: {
          protocol: "h2",
          transport: "tcp",
          serverModel: "out-of-order",
          priority: "none",
          chunkSizeBytes: 16_384,
          connectionsPerOrigin: client === "emulated" ? 1 : null,
          emulation: client === "emulated" ? { preloader: true, cpuFactor: 1, waitFor: "graph" } : null,
        },
        topology,
        seed: 1,
        timeoutMs: 60_000,
        serverOut: join(out, "runs", `${client}.servers`),
        resultFile,
      });
      writeFileSync(resultFile, JSON.stringify(run, null, 1) + "\n");
      const m = run.metrics;
      const name = client === "emulated" ? "emulated browser" : "Chromium        ";
      lines.push(`  ${name} ${run.status}: DOMContentLoaded ${m.domContentLoadedMs?.toFixed(0)} ms, load ${m.loadMs?.toFixed(0)} ms, FCP ${m.firstContentfulPaintMs?.toFixed(0) ?? "-"} ms, LCP ${m.largestContentfulPaintMs?.toFixed(0) ?? "-"} ms  (${shownPath(resultFile)}; pagepath trace ${shownPath(resultFile)})`);
    }
  } finally {
    await topologyDown(net);
  }
  return lines;
}
