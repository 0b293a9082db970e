import type { ErrorObject } from "ajv/dist/2020.js";

/**
 * One Ajv error as "<JSON pointer>: <what is wrong>", the way every pagepath format reports shape
 * problems. `format` names the format for unknown fields ("the graph format"). A pattern's
 * description in the schema, when Ajv was run with `verbose`, says what the text should look like.
 */
export function describeSchemaError(e: ErrorObject, root: unknown, format: string): string {
  const p = e.params as Record<string, unknown>;
  const found = () => `, not ${JSON.stringify(valueAt(root, e.instancePath))}`;
  switch (e.keyword) {
    case "required": {
      // A field required by an if/then on "kind" is missing only for that kind of object.
      const kind = (valueAt(root, e.instancePath) as { kind?: unknown }).kind;
      const why = e.schemaPath.includes("/then/") && kind !== undefined ? ` (needed when kind is ${JSON.stringify(kind)})` : "";
      return `${pointer(e.instancePath, String(p.missingProperty))}: is missing${why}`;
    }
    case "additionalProperties":
      return `${pointer(e.instancePath, String(p.additionalProperty))}: is not a field of ${format} (misspelt?)`;
    case "enum":
      return `${pointer(e.instancePath)}: must be one of ${(p.allowedValues as unknown[]).map(String).join(", ")}${found()}`;
    case "const":
      return `${pointer(e.instancePath)}: must be ${JSON.stringify(p.allowedValue)}${found()}`;
    case "type":
      return `${pointer(e.instancePath)}: must be ${[p.type].flat().join(" or ")}${found()}`;
    case "pattern": {
      const what = (e.parentSchema as { description?: string } | undefined)?.description ?? `text matching ${String(p.pattern)}`;
      return `${pointer(e.instancePath)}: must be ${what}${found()}`;
    }
    case "minItems":
      return `${pointer(e.instancePath)}: must have at least ${String(p.limit)} entries`;
    case "uniqueItems":
      return `${pointer(e.instancePath)}: entries ${String(p.j)} and ${String(p.i)} are the same`;
    default:
      return `${pointer(e.instancePath)}: ${e.message ?? e.keyword}${found()}`;
  }
}

function pointer(base: string, child?: string): string {
  const full = child === undefined ? base : `${base}/${child.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  return full === "" ? "/" : full;
}

function valueAt(root: unknown, at: string): unknown {
  let v = root;
  for (const raw of at.split("/").slice(1)) v = (v as Record<string, unknown>)[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
  return v;
}
