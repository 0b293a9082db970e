import { DEFAULT_HOST, DEFAULT_PORT } from "@pagepath/viewer";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fixtureDir, serveSite, siteProfileOptions } from "@pagepath/corpus";
import { execFileSync } from "node:child_process";
import { buildGraph, loadRecording, toDot } from "@pagepath/graph-builder";
import { DEFAULT_CHROMIUM, readBody, readRecording, recordPage, toHar, writeRecording } from "@pagepath/profiler";
import type { Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { demoReplays } from "./demo-replay.js";

export const demoVerb: Verb = {
  name: "demo",
  summary: "run the main job on the bundled multi-origin example site",
  usage: `
usage: pagepath demo [--out DIR]

Serves the bundled example site (corpus/fixtures/multi-origin: five host names over HTTPS/HTTP2 and
HTTP/1.1) on 127.0.0.1, profiles it in Chromium, exports the recording as HAR, builds its dependency
graph, draws it with Graphviz, replays it through an emulated 10 Mbit/s, 40 ms link with the
emulated browser and with Chromium (as root), and prints what was recorded, the critical path and
the replayed load times.
  --out DIR     where to write (default ./out/demo)
`,
  paths: { options: ["out"] },
  options: { out: { type: "string", default: "out/demo" } },
  async run(values) {
    const out = resolve(String(values.out));
    mkdirSync(out, { recursive: true });
    const site = await serveSite(fixtureDir("multi-origin"));
    const dir = join(out, "recording");
    try {
      process.stdout.write(`serving ${site.config.entry} and ${Object.keys(site.config.hosts).length - 1} other origins on 127.0.0.1\n`);
      process.stdout.write(`profiling in ${DEFAULT_CHROMIUM} ...\n`);
      const { recording } = await recordPage(site.config.entry, siteProfileOptions(site, { quietMs: 1500, capMs: 30_000 }));
      writeRecording(dir, recording);
    } finally {
      await site.close();
    }
    const r = readRecording(dir);
    const m = r.manifest;
    const harFile = join(out, "recording.har");
    writeFileSync(harFile, JSON.stringify(toHar(r, (sha) => readBody(dir, sha)), null, 1));
    const lc = m.lifecycle;
    const byOrigin = new Map<string, number>();
    for (const e of r.archive) byOrigin.set(new URL(e.url).origin, (byOrigin.get(new URL(e.url).origin) ?? 0) + 1);
    const lines = [
      `recording: ${shownPath(dir)}  (${m.status}${m.reason ? ": " + m.reason : ""})`,
      `  ${m.counts.requests} requests, ${m.counts.bodies} bodies, ${m.counts.events} CDP events, ${m.counts.traceEvents} trace events`,
      `  DOMContentLoaded ${lc.domContentLoaded} ms, load ${lc.load} ms, FCP ${lc.firstContentfulPaint} ms, LCP ${lc.largestContentfulPaint} ms`,
      ...[...byOrigin].map(([o, n]) => `  ${String(n).padStart(3)} requests from ${o}`),
      "  requests (initiator type, protocol, server delay):",
      ...r.archive.map(
        (e) =>
          `    ${e.initiator.type.padEnd(7)} ${(e.response?.protocol ?? "-").padEnd(8)} ${e.serverDelay.ms === null ? "   -  " : (e.serverDelay.ms.toFixed(0) + " ms").padStart(6)}  ${e.fromCache ? `(${e.fromCache} cache) ` : ""}${e.url}`,
      ),
      `HAR: ${shownPath(harFile)}  (opens in Chrome DevTools: Network panel > Import HAR)`,
      ...graphSummary(dir, out),
      ...(await demoReplays(join(out, "graph.json"), out)),
      `check them: pagepath validate ${shownPath(dir)} ${shownPath(join(out, "graph.json"))}`,
      `browse the graph and its timeline: pagepath view ${shownPath(out)}   (then open http://${DEFAULT_HOST}:${DEFAULT_PORT}/ in a browser)`,
    ];
    process.stdout.write(lines.join("\n") + "\n");
    return m.status === "complete" ? 0 : 1;
  },
};

function graphSummary(dir: string, out: string): string[] {
  const g = buildGraph(loadRecording(dir));
  const graphFile = join(out, "graph.json");
  writeFileSync(graphFile, JSON.stringify(g));
  const svgFile = join(out, "graph.svg");
  writeFileSync(svgFile, execFileSync("dot", ["-Tsvg"], { input: toDot(g), maxBuffer: 256 * 1024 * 1024 }));
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const b = g.criticalPath.breakdown;
  return [
    `graph: ${shownPath(graphFile)}  (${g.nodes.length} nodes, ${g.edges.length} edges, ${g.frames.length} frames; drawn in ${shownPath(svgFile)})`,
    `  critical path ${g.criticalPath.totalMs.toFixed(1)} ms: network ${b.network.toFixed(1)}, script ${b.script.toFixed(1)}, parse ${b.parse.toFixed(1)}, css ${b.css.toFixed(1)}, other ${b.other.toFixed(1)}`,
    ...g.criticalPath.nodes.map((id) => `    ${byId.get(id)!.kind.padEnd(8)} ${byId.get(id)!.duration.toFixed(1).padStart(7)} ms  ${byId.get(id)!.label}`),
  ];
}
