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
    case "oneOf":
    case "anyOf":
      return `${pointer(e.instancePath)}: must be ${(e.schema as unknown[]).map(branchName).join(" or ")}${found()}`;
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

/**
 * Ajv reports a value that matches no branch of a oneOf or anyOf once per branch and once for the
 * choice itself. A branch whose type the value has says best what is wrong (a null-or-object field
 * given an object with a bad field); when the value has none of the branches' types, the choice says
 * it. A choice's branch errors are those just before it at or under its place (a $ref'd branch's
 * schema path is the definition's, so the schema path cannot tell them).
 */
export function withoutBranchErrors(errors: ErrorObject[]): ErrorObject[] {
  const dropped = new Set<number>();
  errors.forEach((c, i) => {
    if (c.keyword !== "oneOf" && c.keyword !== "anyOf") return;
    const branch: number[] = [];
    for (let j = i - 1; j >= 0 && !dropped.has(j) && errors[j]!.instancePath.startsWith(c.instancePath); j--) branch.push(j);
    const wrongType = (j: number) => errors[j]!.instancePath === c.instancePath && errors[j]!.keyword === "type";
    const telling = branch.filter((j) => !wrongType(j));
    for (const j of telling.length > 0 ? branch.filter(wrongType) : branch) dropped.add(j);
    if (telling.length > 0) dropped.add(i);
  });
  return errors.filter((_, i) => !dropped.has(i));
}

/** What one branch of a choice accepts, in words: its description, else its type or definition's name. */
function branchName(branch: unknown): string {
  const b = branch as { description?: string; type?: string | string[]; $ref?: string; const?: unknown; enum?: unknown[] };
  if (b.description) return b.description;
  if (b.const !== undefined) return JSON.stringify(b.const);
  if (b.type) return [b.type].flat().join(" or ");
  if (b.$ref) return b.$ref.slice(b.$ref.lastIndexOf("/") + 1);
  return "another shape";
}
