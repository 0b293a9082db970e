/**
 * Every format's JSON Schema (formats/schema/*.schema.json, the one source docs/formats links to),
 * compiled in one Ajv instance so that one schema can use another's definitions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeSchemaError, withoutBranchErrors } from "./schema-errors.js";

// From dist/src/ back to the package, where the schemas ship next to the compiled code.
const SCHEMA_DIR = new URL("../../schema/", import.meta.url);

let ajv: Ajv2020 | undefined;

function schemas(): Ajv2020 {
  if (ajv) return ajv;
  // verbose: a pattern's description in the schema says what the text should look like. Strict: a
  // schema mistake Ajv would only log (a keyword without its type) fails at once, where tests see it;
  // strictRequired stays off, as the plan's anyOf requires fields its parent defines. Each schema is
  // compiled when first asked for, so a reader of one format pays for no other.
  ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false });
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".schema.json")).sort()) {
    const schema = JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), "utf8")) as { $id?: string };
    // Schemas name each other by $id ("run-result.schema.json#/$defs/..."): it must be the file's name.
    if (schema.$id !== file) throw new Error(`formats/schema/${file}: "$id" must be "${file}", not ${JSON.stringify(schema.$id)}`);
    ajv.addSchema(schema);
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
  return withoutBranchErrors(check.errors ?? []).filter((e) => e.keyword !== "if").map((e) => describeSchemaError(e, value, format));
}
