/**
 * Every format's JSON Schema (formats/schema/*.schema.json, the one source docs/formats links to),
 * compiled in one Ajv instance so that one schema can use another's definitions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeSchemaError } from "./schema-errors.js";

// From dist/src/ back to the package, where the schemas ship next to the compiled code.
const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

let ajv: Ajv2020 | undefined;

function schemas(): Ajv2020 {
  if (ajv) return ajv;
  // verbose: a pattern's description in the schema says what the text should look like.
  ajv = new Ajv2020({ allErrors: true, verbose: true });
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".schema.json")).sort()) {
    ajv.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), "utf8")) as object);
  }
  return ajv;
}

/**
 * Shape problems of a value against a schema ("recording.schema.json", or a definition in one:
 * "recording.schema.json#/$defs/archive"), each "<JSON pointer>: <what is wrong>"; undefined when it
 * has the shape. `format` names the format in messages about unknown fields.
 */
export function schemaProblems(value: unknown, ref: string, format: string): string[] | undefined {
  const check = schemas().getSchema(ref);
  if (!check) throw new Error(`no JSON Schema ${ref} among the formats' schemas`);
  if (check(value)) return undefined;
  // An if/then/else failure is also reported as the errors of the branch taken: those say what is wrong.
  return (check.errors ?? []).filter((e) => e.keyword !== "if").map((e) => describeSchemaError(e, value, format));
}

/** The schema files, by name, for tools that publish or list them. */
export function schemaFiles(): string[] {
  return readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".schema.json")).sort();
}
