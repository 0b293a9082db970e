import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { breakCycles, findCycle } from "../src/cycles.js";
import { Draft } from "../src/draft.js";
import { offsetAfterLine, scanScripts } from "../src/html-scripts.js";

describe("cycle breaking", () => {
  const node = (d: Draft, label: string) => d.add({ kind: "script", frameId: "F", label, start: 0, end: 1, duration: 1, script: { url: label, type: "sync", line: null, segment: 0 } });

  it("breaks a cycle at its inferred edge and reports it", () => {
    const d = new Draft();
    const [a, b, c] = [node(d, "a"), node(d, "b"), node(d, "c")];
    d.edge(a, b, "R14", "observed");
    d.edge(b, c, "R14", "observed");
    d.edge(c, a, "R11", "inferred");
    breakCycles(d);
    assert.equal(findCycle(d), null);
    assert.deepEqual(d.edges.map((e) => `${e.from}>${e.to}`), ["js0>js1", "js1>js2"]);
    assert.match(d.warnings[0]!, /cycle js0 -> js1 -> js2 -> js0 broken by removing inferred edge js2 -> js0 \(R11\)/);
  });

  it("with only observed edges, removes one and still reports it; leaves a DAG alone", () => {
    const d = new Draft();
    const [a, b] = [node(d, "a"), node(d, "b")];
    d.edge(a, b, "R14", "observed");
    d.edge(b, a, "R14", "observed");
    breakCycles(d);
    assert.equal(d.edges.length, 1);
    assert.equal(d.warnings.length, 1);
    const dag = new Draft();
    const [x, y] = [node(dag, "x"), node(dag, "y")];
    dag.edge(x, y, "R14", "observed");
    breakCycles(dag);
    assert.deepEqual(dag.warnings, []);
  });

  it("keeps an observed edge over an inferred one between the same nodes", () => {
    const d = new Draft();
    const [a, b] = [node(d, "a"), node(d, "b")];
    d.edge(a, b, "R4", "inferred");
    d.edge(a, b, "R4", "observed");
    d.edge(a, b, "R12", "inferred");
    assert.deepEqual(d.edges, [{ from: a.id, to: b.id, rule: "R4", how: "observed" }]);
  });
});

describe("script tags in HTML", () => {
  it("tells inline, sync, async, defer and module apart, with 0-based lines and absolute URLs", () => {
    const html = [
      "<html><head>",
      '<script src="/a.js"></script>',
      "<script async src='b.js'></script>",
      '<SCRIPT defer src="https://cdn.test/c.js"></SCRIPT>',
      '<script type="module" src="m.mjs"></script>',
      "<script>inline()</script>",
      '<script src=d.js async=""></script>',
      '<script type="module" async src="n.mjs"></script>',
    ].join("\n");
    assert.deepEqual(scanScripts(html, "https://site.test/dir/page.html"), [
      { src: "https://site.test/a.js", type: "sync", line: 1, async: false },
      { src: "https://site.test/dir/b.js", type: "async", line: 2, async: true },
      { src: "https://cdn.test/c.js", type: "defer", line: 3, async: false },
      { src: "https://site.test/dir/m.mjs", type: "module", line: 4, async: false },
      { src: null, type: "inline", line: 5, async: false },
      { src: "https://site.test/dir/d.js", type: "async", line: 6, async: true },
      { src: "https://site.test/dir/n.mjs", type: "module", line: 7, async: true },
    ]);
  });

  it("finds the byte offset just past a line, and the end for lines past the last", () => {
    const b = Buffer.from("ab\ncd\nef");
    assert.equal(offsetAfterLine(b, 0), 3);
    assert.equal(offsetAfterLine(b, 1), 6);
    assert.equal(offsetAfterLine(b, 5), 8);
  });
});
