import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchGraphBuild, benchProfiler } from "@pagepath/bench";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const benchVerb: Verb = {
  name: "bench",
  summary: "benchmarks, reported as ratios against a reference measured in the same run",
  usage: `
usage: pagepath bench profiler|build [--loads N] [--out DIR]

profiler   page load time with full instrumentation / without any, on the bundled fixture pages
           (median of N loads each, alternating), and recordings per minute.
build      graph build time / time to read and JSON-parse the same recording, on the multi-origin
           fixture and a generated page of 1,200 images (median of N builds).
  --loads N    loads (profiler) or builds (build) per measurement (default 10)
  --out DIR    where the JSON result goes (default bench/results)
`,
  options: { loads: { type: "string" }, out: { type: "string", default: "bench/results" } },
  async run(values, positionals) {
    const which = positionals[0];
    if (which !== "profiler" && which !== "build") throw new UsageError(`unknown benchmark ${JSON.stringify(which ?? "")}; expected: profiler or build`);
    const loads = numberOption(values, "loads", 10, 1, 1000);
    const log = (l: string) => process.stderr.write(l + "\n");
    if (which === "build") return reportBuild(await benchGraphBuild(loads, log), String(values.out));
    const r = await benchProfiler(loads, log);
    const lines = [`profiler overhead (${r.chromium}; median of ${loads} loads per mode; ratio = mode / no instrumentation)`];
    lines.push("  page                                      mode                   median ms   p90 ms   ratio");
    for (const o of r.overhead) {
      lines.push(`  ${o.page.padEnd(40)}  ${o.mode.padEnd(21)} ${o.medianMs.toFixed(1).padStart(9)} ${o.p90Ms.toFixed(1).padStart(8)}   ${o.ratio.toFixed(3)}`);
    }
    for (const t of r.throughput) {
      lines.push(`  recordings per minute with a ${t.quietMs} ms quiet period: ${t.pagesPerMinute.toFixed(1)} (${t.pages} pages in ${t.seconds.toFixed(1)} s)`);
    }
    process.stdout.write(lines.join("\n") + "\n");
    const out = String(values.out);
    mkdirSync(out, { recursive: true });
    const file = join(out, "profiler.json");
    writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), loads, ...r }, null, 2) + "\n");
    process.stdout.write(`wrote ${file}\n`);
    return 0;
  },
};

function reportBuild(rows: Awaited<ReturnType<typeof benchGraphBuild>>, out: string): number {
  const lines = ["graph build time against read + JSON.parse of the same recording (median)"];
  lines.push("  resources  trace events   parse ms   build ms   ratio");
  for (const r of rows) {
    lines.push(`  ${String(r.resources).padStart(9)} ${String(r.traceEvents).padStart(13)} ${r.parseMs.toFixed(1).padStart(10)} ${r.buildMs.toFixed(1).padStart(10)}   ${r.ratio.toFixed(2)}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "build.json"), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2) + "\n");
  process.stdout.write(`wrote ${join(out, "build.json")}\n`);
  return 0;
}
