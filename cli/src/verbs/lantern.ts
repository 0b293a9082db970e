import { predictWithLantern } from "@pagepath/lantern";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const lanternVerb: Verb = {
  name: "lantern",
  summary: "predict a recording's FCP, LCP and Interactive with Lighthouse's Lantern simulator",
  usage: `
usage: pagepath lantern <recording-dir> [--rate-mbit R] [--rtt-ms T] [--cpu-factor F]

Runs Lighthouse's Lantern simulator (from @paulirish/trace_engine) on the recording's trace and
prints its predictions as JSON: First Contentful Paint, Largest Contentful Paint and Time to
Interactive in ms from the main document's request, on one link of the given rate and RTT, as a
pagepath replay's single-path link. Lantern predicts no load event (loadMs is null). What was made
comparable with a replay, and how: docs/lantern.md.
  --rate-mbit R     the simulated link's rate in Mbit/s (default 10)
  --rtt-ms T        its round-trip time in ms (default 40)
  --cpu-factor F    computation times x F (default 1: the recording's machine)
`,
  paths: { positionals: true },
  options: {
    "rate-mbit": { type: "string" },
    "rtt-ms": { type: "string" },
    "cpu-factor": { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected exactly one recording directory");
    const dir = positionals[0]!;
    const conditions = {
      throughputMbit: numberOption(values, "rate-mbit", 10, 0.01, 100_000),
      rttMs: numberOption(values, "rtt-ms", 40, 0, 10_000),
      cpuSlowdown: numberOption(values, "cpu-factor", 1, 0.01, 100),
    };
    const prediction = await predictWithLantern(dir, conditions);
    process.stdout.write(JSON.stringify({ recording: dir, conditions, ...prediction }, null, 1) + "\n");
    for (const w of prediction.warnings) process.stderr.write(`warning: ${w}\n`);
    return 0;
  },
};
