import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { restoreTextBytes } from "../src/text-body.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const text = Buffer.from("var ckeditor = 1;\n");

describe("text bodies as the server sent them", () => {
  it("get back the UTF-8 byte-order mark Chromium's decoder dropped", () => {
    const got = restoreTextBytes(text, { "Content-Length": String(text.length + 3) });
    assert.ok(got.equals(Buffer.concat([BOM, text])));
  });

  it("stay as they are when the length matches, is unknown, or the response was compressed", () => {
    assert.ok(restoreTextBytes(text, { "content-length": String(text.length) }).equals(text));
    assert.ok(restoreTextBytes(text, {}).equals(text));
    assert.ok(restoreTextBytes(text, { "content-length": String(text.length + 3), "content-encoding": "gzip" }).equals(text));
    const withBom = Buffer.concat([BOM, text]);
    assert.ok(restoreTextBytes(withBom, { "content-length": String(withBom.length + 3) }).equals(withBom));
  });
});
