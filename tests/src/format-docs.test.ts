/**
 * docs/formats describes what formats/schema defines: every format in the catalogue is listed in
 * docs/formats/README.md with its schema and page, and every field a schema defines is named on
 * its page, so the written description cannot fall behind the one source.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { FORMATS } from "@pagepath/formats";

/** Every property name a schema defines, at any depth. */
function fieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) fieldNames(s, out);
  else if (schema && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      if (k === "properties" && v && typeof v === "object") for (const name of Object.keys(v)) out.add(name);
      fieldNames(v, out);
    }
  }
  return out;
}

describe("format docs and schemas", () => {
  it("the formats' README lists each format with its schema and its page", () => {
    const readme = readFileSync("docs/formats/README.md", "utf8");
    for (const f of FORMATS) {
      assert.ok(readme.includes(`(../../formats/schema/${f.schema})`), `docs/formats/README.md does not link ${f.schema}`);
      assert.ok(readme.includes(`(${f.doc})`), `docs/formats/README.md does not link ${f.doc}`);
      if (f.kind) assert.ok(readme.includes(`\`${f.kind}\``), `docs/formats/README.md does not name the kind ${f.kind}`);
    }
  });

  it("every field a schema defines is named on its format's page", () => {
    for (const f of FORMATS) {
      const page = readFileSync(`docs/formats/${f.doc}`, "utf8");
      // Code spans (odd pieces between backticks; a span may run over a line break, as Markdown allows).
      const spans = page.split("`").filter((_, i) => i % 2 === 1).join("\n");
      const named = (field: string) => new RegExp(`\\b${field.replace(/\$/g, "\\$")}\\b`).test(spans);
      const missing = [...fieldNames(JSON.parse(readFileSync(`formats/schema/${f.schema}`, "utf8")))].filter((field) => !named(field));
      assert.deepEqual(missing, [], `docs/formats/${f.doc} does not name these fields of ${f.schema}`);
    }
  });
});
