/**
 * The JSON Schema half of validation: the shape of a run result or plan, reported as
 * "<JSON pointer>: <what is wrong>" sentences. What a schema cannot say is checked in code elsewhere.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { describeSchemaError } from "@pagepath/graph-builder";

// From dist/src/ back to the package, where the schemas ship next to the compiled code.
const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

export type SchemaName = "run-result" | "experiment-plan";

const FORMAT_NAMES: Record<SchemaName, string> = { "run-result": "the run result format", "experiment-plan": "the experiment plan format" };

let checks: Record<SchemaName, ValidateFunction> | undefined;

function compiled(): Record<SchemaName, ValidateFunction> {
  if (checks) return checks;
  const load = (name: SchemaName) => JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), "utf8")) as object;
  // The plan schema borrows the run schema's definitions, so both live in one Ajv instance.
  const ajv = new Ajv2020({ allErrors: true, verbose: true }).addSchema(load("run-result"));
  checks = { "run-result": ajv.getSchema("run-result.schema.json")!, "experiment-plan": ajv.compile(load("experiment-plan")) };
  return checks;
}

/** Shape problems of a value, or undefined when it has the schema's shape. */
export function shapeProblems(value: unknown, schema: SchemaName): string[] | undefined {
  const check = compiled()[schema];
  if (check(value)) return undefined;
  // An if/then/else failure is also reported as the errors of the branch taken: those say what is wrong.
  return (check.errors ?? []).filter((e) => e.keyword !== "if").map((e) => describeSchemaError(e, value, FORMAT_NAMES[schema]));
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
