import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DocumentState } from "../src/context.js";
import { chunkHolding, hasContent } from "../src/first-content.js";
import type { GraphNode } from "../src/graph.js";

describe("what a first contentful paint counts as content, in HTML source", () => {
  it("text outside scripts, styles and comments, and images, SVG, canvas and form controls", () => {
    assert.equal(hasContent("<h1>Title</h1>"), true);
    assert.equal(hasContent('<div><img src="a.png"></div>'), true);
    assert.equal(hasContent("<svg viewBox='0 0 1 1'></svg>"), true);
    assert.equal(hasContent("<input type=text>"), true);
  });

  it("not tags alone, whitespace, entities of space, comments, scripts or styles", () => {
    assert.equal(hasContent('<body class="x">\n  <div id="app"></div>\n'), false);
    assert.equal(hasContent("<p>&nbsp;</p>"), false);
    assert.equal(hasContent("<!-- a comment with words -->"), false);
    assert.equal(hasContent('<script>document.write("words")</script><style>p { color: red }</style>'), false);
    assert.equal(hasContent('<script src="a.js">'), false, "a script tag cut at the chunk's end");
  });
});

describe("the parse chunk holding the element Chromium names", () => {
  const chunk = (startLine: number, endLine: number) => ({ id: `p${startLine}`, parse: { startLine, endLine } }) as unknown as GraphNode;
  const parses = [chunk(0, 3), chunk(3, 6), chunk(6, 9)];
  const doc = {
    parses,
    body: Buffer.from(
      ["<html><head>", "<script src=a.js></script>", "</head><body>", "<p>one</p>", '<h1 class="title big">Hi</h1>', "<p>two</p>", '<div id="hero" class="x">', "<img src=h.png>", "</div>", "</body></html>"].join("\n"),
    ),
  } as unknown as DocumentState;

  it("finds a tag by its attributes, whatever their order and quoting", () => {
    assert.equal(chunkHolding(doc, "H1 class='title big'")?.id, "p3");
    assert.equal(chunkHolding(doc, "DIV class='x' id='hero'")?.id, "p6");
  });

  it("says nothing for a bare tag or one the source lacks", () => {
    assert.equal(chunkHolding(doc, "P"), undefined);
    assert.equal(chunkHolding(doc, "H2 class='title'"), undefined);
  });
});
