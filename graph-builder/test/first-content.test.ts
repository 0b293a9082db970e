import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DocumentState } from "../src/context.js";
import { chunkHolding, hasContent, showsOnlyImages } from "../src/first-content.js";
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

describe("a first content of images only", () => {
  const chunk = (startLine: number, endLine: number, bodyReached: boolean) => ({ id: `p${startLine}`, parse: { startLine, endLine, bodyReached } }) as unknown as GraphNode;
  const page = (lines: string[]) => {
    const parses = [chunk(0, 1, false), chunk(1, 3, true), chunk(3, 5, false)];
    return { parses, body: Buffer.from(lines.join("\n")) } as unknown as DocumentState;
  };

  it("images, iframes and the white space between them, up to the chunk: images only", () => {
    const doc = page(["<html><head><title>t</title>", "</head><body>", '<img src=a.png> <iframe src="f.html"></iframe>', '<img src="b.png">', "<p>words</p>"]);
    assert.equal(showsOnlyImages(doc, doc.parses[1]!), true);
    assert.equal(showsOnlyImages(doc, doc.parses[2]!), false, "the next chunk brings text");
  });

  it("text, SVG or a form control beside the images is content at once", () => {
    for (const beside of ["<p>hello</p>", "<svg viewBox='0 0 1 1'></svg>", "<input>"]) {
      const doc = page(["<html><head>", "</head><body>", `<img src=a.png>${beside}`, "", ""]);
      assert.equal(showsOnlyImages(doc, doc.parses[1]!), false, beside);
    }
  });
});
