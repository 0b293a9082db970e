/**
 * The JSON Schema half of validation: the shape of a run result, plan, accuracy result or analysis, reported as
 * "<JSON pointer>: <what is wrong>" sentences. What a schema cannot say is checked in code elsewhere.
 */
import { schemaProblems } from "@pagepath/formats";

export type SchemaName = "run-result" | "experiment-plan" | "accuracy" | "accuracy-samples" | "analysis";

const FORMAT_NAMES: Record<SchemaName, string> = {
  "run-result": "the run result format",
  "experiment-plan": "the experiment plan format",
  accuracy: "the accuracy result format",
  "accuracy-samples": "the accuracy samples format",
  analysis: "the analysis format",
};

/** Shape problems of a value against its schema in formats/schema/, or undefined when it has the shape. */
export function shapeProblems(value: unknown, schema: SchemaName): string[] | undefined {
  return schemaProblems(value, `${schema}.schema.json`, FORMAT_NAMES[schema]);
}

/**
 * Another version's layout may differ throughout, so checking it against this schema would only bury
 * the one thing that matters.
 */
export function versionProblem(value: unknown, supported: number): string[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["/: must be a JSON object"];
  if (!("schemaVersion" in value) || value.schemaVersion === supported) return undefined;
  return [`/schemaVersion: ${JSON.stringify(value.schemaVersion)} is not supported (this pagepath reads schemaVersion ${supported})`];
}
