import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchProfiler } from "@pagepath/bench";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const benchVerb: Verb = {
  name: "bench",
  summary: "benchmarks, reported as ratios against a reference measured in the same run",
  usage: `
usage: pagepath bench profiler [--loads N] [--out DIR]

profiler   page load time with full instrumentation / without any, on the bundled fixture pages
           (median of N loads each, alternating), and recordings per minute.
  --loads N    loads per page and mode (default 10)
  --out DIR    where the JSON result goes (default bench/results)
`,
  options: { loads: { type: "string" }, out: { type: "string", default: "bench/results" } },
  async run(values, positionals) {
    const which = positionals[0];
    if (which !== "profiler") throw new UsageError(`unknown benchmark ${JSON.stringify(which ?? "")}; expected: profiler`);
    const loads = numberOption(values, "loads", 10, 1, 1000);
    const log = (l: string) => process.stderr.write(l + "\n");
    const r = await benchProfiler(loads, log);
    const lines = [`profiler overhead (${r.chromium}; median of ${loads} loads per mode)`];
    lines.push("  page                                      plain ms  instrumented ms  ratio   (p90 plain / instr.)");
    for (const o of r.overhead) {
      lines.push(
        `  ${o.page.padEnd(40)} ${o.plainMedianMs.toFixed(1).padStart(9)} ${o.instrumentedMedianMs.toFixed(1).padStart(16)}  ${o.ratio.toFixed(3)}   (${o.plainP90Ms.toFixed(1)} / ${o.instrumentedP90Ms.toFixed(1)})`,
      );
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
