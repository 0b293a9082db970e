/**
 * Every file format pagepath writes for other tools or its own later steps, with its JSON Schema
 * (formats/schema/) and its written description (docs/formats/). `kind` is what a file says it is;
 * null for the formats people write by hand, which carry none.
 */
export interface FormatEntry {
  name: string;
  kind: string | null;
  schema: string;
  doc: string;
}

export const FORMATS: readonly FormatEntry[] = [
  { name: "recording", kind: "pagepath-recording", schema: "recording.schema.json", doc: "recording.md" },
  { name: "graph", kind: "pagepath-graph", schema: "graph.schema.json", doc: "graph.md" },
  { name: "run result", kind: "pagepath-run", schema: "run-result.schema.json", doc: "run-result.md" },
  { name: "experiment plan", kind: "pagepath-experiment-plan", schema: "experiment-plan.schema.json", doc: "experiment-results.md" },
  { name: "accuracy result", kind: "pagepath-accuracy", schema: "accuracy.schema.json", doc: "accuracy.md" },
  { name: "accuracy samples", kind: "pagepath-accuracy-samples", schema: "accuracy-samples.schema.json", doc: "accuracy-samples.md" },
  { name: "analysis", kind: "pagepath-analysis", schema: "analysis.schema.json", doc: "analysis.md" },
  { name: "topology", kind: null, schema: "topology.schema.json", doc: "topology.md" },
  { name: "realistic-site recipe", kind: null, schema: "recipe.schema.json", doc: "realistic-site.md" },
];
