import { writeFileSync } from "node:fs";
import { DOT_BIN, readGraphFile, runDot, toDot } from "@pagepath/graph-builder";
import { UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

const FORMATS = ["dot", "svg", "pdf", "png"] as const;
type Format = (typeof FORMATS)[number];

export const dotVerb: Verb = {
  name: "dot",
  summary: "draw a dependency graph with Graphviz (DOT, SVG, PDF or PNG)",
  usage: `
usage: pagepath dot <graph.json> [-o FILE] [--format dot|svg|pdf|png] [--all] [--rankdir LR|TB]

Draws a dependency graph the way the thesis's Graph Viewer does: parse chunks black, scripts red
(style sheets light red), resources and document downloads blue, timers orange, events green,
DOMContentLoaded and load markers grey; one grey box per frame, subframes inside their parent's.
The critical path is drawn thick; inferred edges are dashed (hover an edge for its rule).
Formats other than dot are rendered by Graphviz's dot (${DOT_BIN}).
Default output: <graph.json> with .json replaced by the format's extension.
  -o, --out FILE        where to write ("-" for standard output)
  --format FMT          dot (default), svg, pdf or png
  --all                 also draw nodes the emulator leaves out (dotted, faded)
  --rankdir DIR         LR (default: left to right) or TB (top to bottom)
`,
  paths: { options: ["out"], positionals: true },
  options: {
    out: { type: "string", short: "o" },
    format: { type: "string" },
    all: { type: "boolean" },
    rankdir: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("expected exactly one graph file");
    const input = positionals[0]!;
    const format = choice(values, "format", FORMATS, "dot");
    const rankdir = choice(values, "rankdir", ["LR", "TB"] as const, "LR");
    const dot = toDot(readGraphFile(input), { includeExcluded: values.all === true, rankdir });
    const output = format === "dot" ? Buffer.from(dot) : await runDot(dot, [`-T${format}`], input);
    const out = (values.out as string | undefined) ?? outputPath(input, format);
    if (out === "-") process.stdout.write(output);
    else {
      writeFileSync(out, output);
      process.stdout.write(`wrote ${shownPath(out)}\n`);
    }
    return 0;
  },
};

function choice<T extends string>(values: Record<string, unknown>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T)) throw new UsageError(`--${name} "${raw}": expected one of ${allowed.join(", ")}`);
  return raw as T;
}

function outputPath(input: string, format: Format): string {
  return input.endsWith(".json") ? input.slice(0, -".json".length) + "." + format : `${input}.${format}`;
}

