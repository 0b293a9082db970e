/**
 * Checks an analysis (docs/formats/analysis.md) with its JSON Schema. Every problem names where it is:
 * "<file>: <JSON pointer>: <what is wrong>".
 */
import { capProblems, readJsonFile } from "@pagepath/graph-builder";
import { ANALYSIS_SCHEMA_VERSION, type ExperimentAnalysis } from "./analysis/analyze-experiment.js";
import { shapeProblems, versionProblem } from "./schema-check.js";

/** Problems with a parsed analysis, each "<where>: <pointer>: <what is wrong>"; empty when valid. */
export function validateAnalysis(value: unknown, where: string): string[] {
  const problems = versionProblem(value, ANALYSIS_SCHEMA_VERSION) ?? shapeProblems(value, "analysis") ?? [];
  return capProblems(problems.map((p) => `${where}: ${p}`), where);
}

/** Reads, parses and validates analysis.json; throws an Error listing every problem. */
export function readAnalysisFile(path: string): ExperimentAnalysis {
  const value = readJsonFile(path);
  const problems = validateAnalysis(value, path);
  if (problems.length > 0) throw new Error(`${path}: not a valid pagepath analysis:\n${problems.join("\n")}`);
  return value as ExperimentAnalysis;
}
