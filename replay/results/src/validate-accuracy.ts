/**
 * Checks an accuracy result (docs/formats/accuracy.md) with its JSON Schema. Every problem names where
 * it is: "<file>: <JSON pointer>: <what is wrong>".
 */
import { capProblems, readJsonFile } from "@pagepath/graph-builder";
import { ACCURACY_SCHEMA_VERSION, type AccuracyResult } from "./accuracy-result.js";
import { shapeProblems, versionProblem } from "./schema-check.js";

/** Problems with a parsed accuracy result, each "<where>: <pointer>: <what is wrong>"; empty when valid. */
export function validateAccuracyResult(value: unknown, where: string): string[] {
  const problems = versionProblem(value, ACCURACY_SCHEMA_VERSION) ?? shapeProblems(value, "accuracy") ?? [];
  return capProblems(problems.map((p) => `${where}: ${p}`), where);
}

/** Reads, parses and validates accuracy.json; throws an Error listing every problem. */
export function readAccuracyFile(path: string): AccuracyResult {
  const value = readJsonFile(path);
  const problems = validateAccuracyResult(value, path);
  if (problems.length > 0) throw new Error(`${path}: not a valid pagepath accuracy result:\n${problems.join("\n")}`);
  // Files written before the field are version 1, so callers can rely on it being there.
  return { schemaVersion: ACCURACY_SCHEMA_VERSION, ...(value as Omit<AccuracyResult, "schemaVersion">) };
}
