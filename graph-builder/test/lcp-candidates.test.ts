import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LayoutImage, LayoutText } from "@pagepath/profiler";
import { paintedWith, sourceLines } from "../src/lcp-candidates.js";

const text = (data: string): LayoutText => ({ block: 0, length: data.length, head: data.slice(0, 24), rect: [0, 0, 10, 10] });
const image = (url: string): LayoutImage => ({ nodeName: "IMG", url, rect: [0, 0, 10, 10], natural: [10, 10], displayed: [10, 10] });

describe("LCP candidates: the layout's text nodes and images placed in the document's source", () => {
  it("text nodes by their text in document order, on the line where each begins", () => {
    const html = "<!doctype html><html><head><title>t</title></head><body>\n<p>Hello &amp; welcome</p>\n<img src=a.png>\n<script>var x = 1;</script>\n<div>last</div>\n</body></html>";
    const layout = { texts: ["\n", "Hello & welcome", "\n", "\n", "var x = 1;", "\n", "last", "\n"].map(text), images: [image("https://a.test/a.png")] };
    const placed = sourceLines(html, layout, "https://a.test/");
    assert.deepEqual(placed.texts, [0, 1, 1, 2, 3, 3, 4, 4]);
    assert.deepEqual(placed.images, [2]);
  });

  it("a node a script made is not in the source and is skipped over; the ones after it still match", () => {
    const html = "<body>\n<p>one</p>\n<p>two</p>\n</body>";
    const layout = { texts: [text("\n"), text("one"), text("made by a script"), text("\n"), text("two"), text("\n")], images: [image("https://a.test/nowhere.png")] };
    const placed = sourceLines(html, layout, "https://a.test/");
    assert.deepEqual(placed.texts, [0, 1, null, 1, 2, 2]);
    assert.deepEqual(placed.images, [null]);
  });

  it("tables get the body the parser implies, templates keep their content apart, as in the DOM", () => {
    const html = "<body><table><tr><td>cell</td></tr></table><template><p>inert</p></template><p>after</p></body>";
    const placed = sourceLines(html, { texts: [text("cell"), text("after")], images: [] }, "https://a.test/");
    assert.deepEqual(placed.texts, [0, 0]);
  });

  it("images are matched by their resolved URL, in order", () => {
    const html = "<body>\n<img src=/x.png>\n<img src=y.png>\n<img src=/x.png>\n</body>";
    const placed = sourceLines(html, { texts: [], images: [image("https://a.test/x.png"), image("https://a.test/d/y.png"), image("https://a.test/x.png")] }, "https://a.test/d/page.html");
    assert.deepEqual(placed.images, [1, 2, 3]);
  });
});

describe("LCP candidates: when a block's white space is painted", () => {
  it("a blank text node waits for the next part of its block; words and the block's last node keep their own chunk", () => {
    const parts = [
      { chunk: "c2", blank: true },
      { chunk: "c2", blank: true },
      { chunk: "c4", blank: false },
      { chunk: "c4", blank: true },
      { chunk: "c6", blank: true },
    ];
    assert.deepEqual(paintedWith(parts), ["c2", "c4", "c4", "c6", "c6"]);
  });
});
