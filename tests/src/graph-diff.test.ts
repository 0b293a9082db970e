/** The compare view's diff of two graphs, on the shared two-frame test vector and variants of it. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { readGraphFile, type Graph } from "@pagepath/graph-builder";
import { summaryRows } from "@pagepath/viewer/dist/ui/diff-summary.js";
import { diffGraphs, diffMarks, siteWarning } from "@pagepath/viewer/dist/ui/graph-diff.js";
import { renumbered, shiftedNode, withoutNode } from "./graph-variants.js";

const A = readGraphFile(fileURLToPath(new URL("../../../graph-builder/test-vectors/valid/two-frames.json", import.meta.url)));
const ids = (ns: { id: string }[]): string[] => ns.map((n) => n.id);

describe("graph diff", () => {
  it("matches every node of another build of the same graph, whose ids all differ", () => {
    const d = diffGraphs(A, renumbered(A, "other-"));
    assert.equal(d.pairs.length, A.nodes.length);
    for (const p of d.pairs) assert.equal(p.b.id, `other-${p.a.id}`, p.key);
    assert.deepEqual([d.onlyA, d.onlyB, d.changed, d.criticalChanged], [[], [], [], []]);
  });

  it("finds a removed fetch and a moved one, and marks them", () => {
    const b = renumbered(shiftedNode(withoutNode(A, "xhr1"), "css1", 200), "x");
    const d = diffGraphs(A, b);
    assert.deepEqual(ids(d.onlyA), ["xhr1"]);
    assert.deepEqual(d.onlyB, []);
    assert.deepEqual(d.changed.map((p) => [p.a.id, p.b.id, p.startDelta, p.durationDelta]), [["css1", "xcss1", 200, 0]]);
    assert.deepEqual([...diffMarks(d, "a")].sort(), [["css1", "timing"], ["xhr1", "only"]]);
    assert.deepEqual([...diffMarks(d, "b")], [["xcss1", "timing"]]);
    assert.deepEqual(diffGraphs(A, b, 250).changed, [], "a move within the threshold is not a change");
  });

  it("matches repeated fetches of one URL in the order they started", () => {
    const again = { ...A.nodes.find((n) => n.id === "js1")!, id: "js1-again", start: 300, end: 320 };
    const a: Graph = { ...A, nodes: [...A.nodes, again] };
    const d = diffGraphs(a, shiftedNode(a, "js1-again", 100));
    assert.deepEqual(d.changed.map((p) => [p.a.id, p.b.id]), [["js1-again", "js1-again"]]);
    assert.ok(d.pairs.some((p) => p.a.id === "js1" && p.b.id === "js1"));
  });

  it("reports nodes that joined or left the critical path", () => {
    const b: Graph = { ...A, criticalPath: { ...A.criticalPath, nodes: A.criticalPath.nodes.map((id) => (id === "js1" ? "css1" : id)) } };
    const d = diffGraphs(A, b);
    assert.deepEqual(d.criticalChanged.map((p) => [p.a.id, p.joined]).sort(), [["css1", true], ["js1", false]]);
    assert.equal(diffMarks(d, "b").get("css1"), "critical");
  });

  it("warns, naming both pages, when the graphs are of different pages", () => {
    assert.equal(siteWarning(A, renumbered(A, "y")), null);
    const other: Graph = { ...A, source: { ...A.source, url: "https://elsewhere.test/" } };
    const w = siteWarning(A, other) ?? "";
    assert.ok(w.includes(A.source.url) && w.includes("https://elsewhere.test/"), w);
  });

  it("summarises fetches, bytes, domains, critical path and recorded times, B minus A", () => {
    const rows = new Map(summaryRows(A, withoutNode(A, "xhr1")).map((r) => [r.key, r]));
    // Fetches: the two documents' first chunks, the style sheet, the script and the XHR (420 bytes).
    assert.deepEqual(rows.get("resources"), { key: "resources", label: "resources", unit: "count", a: 5, b: 4, delta: -1 });
    assert.deepEqual([rows.get("bytes")!.a, rows.get("bytes")!.delta], [1550 + 900 + 9000 + 420 + 780, -420]);
    assert.deepEqual([rows.get("domains")!.a, rows.get("domains")!.b], [2, 2]);
    assert.deepEqual([rows.get("cp-ms")!.a, rows.get("cp-ms")!.delta], [157, 0]);
    assert.equal(rows.get("cp-network")!.a, 139);
    assert.deepEqual([rows.get("load")!.a, rows.get("load")!.b], [A.recorded.load, A.recorded.load]);
    const neverLoaded = summaryRows(A, { ...A, recorded: { ...A.recorded, load: null } }).find((r) => r.key === "load")!;
    assert.equal(neverLoaded.delta, null);
  });
});
