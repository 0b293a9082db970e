/**
 * The compare view in headless Chromium: graph A is the profiled fixture-multi-origin graph, graph B
 * is another build of it (all ids differ) with one fetch removed and another 200 ms later.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile, type Graph, type GraphNode } from "@pagepath/graph-builder";
import type { RunningViewer } from "@pagepath/viewer";
import { diffGraphs } from "@pagepath/viewer/dist/ui/graph-diff.js";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { renumbered, shiftedNode, withoutNode } from "./graph-variants.js";
import { ARTIFACTS, closeViewerSession, graphLayout, openViewerSession, paintedPixels, type ViewerBrowser, waitForFile } from "./viewer-browser.js";

const SITE = "fixture-multi-origin";
const [FILE_A, FILE_B, FILE_OTHER] = [`graphs/${SITE}.json`, `graphs/${SITE}-b.json`, "graphs/elsewhere.json"];

/** The summary figures, counted here independently of the viewer. */
function figures(g: Graph): Record<string, number | null> {
  const fetches = g.nodes.filter((n) => n.kind === "resource" || (n.kind === "download" && n.chunk!.index === 0));
  const cp = g.criticalPath;
  return {
    resources: fetches.length,
    bytes: fetches.reduce((s, n) => s + n.resource!.transferSize, 0),
    domains: new Set(fetches.map((n) => new URL(n.resource!.url).hostname)).size,
    "cp-ms": cp.totalMs,
    "cp-nodes": cp.nodes.length,
    ...Object.fromEntries(Object.entries(cp.breakdown).map(([k, v]) => [`cp-${k}`, v])),
    dcl: g.recorded.domContentLoaded,
    load: g.recorded.load,
  };
}

/** Emulated fetches off the critical path whose URL is fetched once and that only the load marker waits for. */
function leafFetches(g: Graph): GraphNode[] {
  const critical = new Set(g.criticalPath.nodes);
  const urls = g.nodes.flatMap((n) => (n.resource ? [n.resource.url] : []));
  return g.nodes.filter(
    (n) =>
      n.kind === "resource" &&
      n.excluded === null &&
      !critical.has(n.id) &&
      urls.filter((u) => u === n.resource!.url).length === 1 &&
      g.edges.every((e) => e.from !== n.id || e.rule === "completion-load"),
  );
}

describe("viewer compare view", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;
  let a: Graph;
  let b: Graph;
  let removed: GraphNode;
  let moved: GraphNode;

  before(async () => {
    data = tempDir("viewer-compare");
    const built = await runCli(["corpus", "build", "--data", data, "--only", SITE, "--quiet-ms", "1000"]);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    a = readGraphFile(join(data, FILE_A));
    [removed, moved] = leafFetches(a) as [GraphNode, GraphNode];
    assert.ok(removed && moved, "the fixture has two fetches that only the load marker waits for");
    writeFileSync(join(data, FILE_B), JSON.stringify(renumbered(shiftedNode(withoutNode(a, removed.id), moved.id, 200), "b-")));
    b = readGraphFile(join(data, FILE_B));
    writeFileSync(join(data, FILE_OTHER), JSON.stringify({ ...a, source: { ...a.source, url: "https://elsewhere.test/" } }));
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("finds exactly the removed fetch as only in A and the moved one as changed", () => {
    const d = diffGraphs(a, b);
    assert.deepEqual(d.onlyA.map((n) => n.id), [removed.id]);
    assert.deepEqual(d.onlyB, []);
    assert.deepEqual(d.changed.map((p) => [p.a.id, p.b.id, p.startDelta.toFixed(6), p.durationDelta]), [[moved.id, `b-${moved.id}`, "200.000000", 0]]);
    assert.deepEqual(d.criticalChanged, []);
    assert.equal(d.pairs.length, a.nodes.length - 1);
  });

  it("compares two ticked graphs: summary, marked canvases, lists, selection in both, export", async () => {
    const { page, errors, downloads } = chromium!;
    await page.goto(viewer!.url, { waitUntil: "load" });
    await page.waitForSelector(`tr[data-file="${FILE_B}"] input.pick`);
    await page.click(`tr[data-file="${FILE_A}"] input.pick`);
    assert.ok(await page.$eval("#compare-selected", (e) => (e as HTMLButtonElement).disabled), "one ticked graph cannot be compared");
    await page.click(`tr[data-file="${FILE_B}"] input.pick`);
    await page.click("#compare-selected");
    await page.waitForSelector("#compare-a[data-drawn]", { timeout: 60_000 });
    await page.waitForSelector("#compare-b[data-drawn]", { timeout: 60_000 });
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.deepEqual([hash.get("view"), hash.get("site"), hash.get("other")], ["compare", FILE_A, FILE_B]);

    const shown = await page.$$eval("table.compare-summary tr[data-row]", (trs) =>
      trs.map((tr) => [tr.getAttribute("data-row"), ...["a", "b", "delta"].map((c) => tr.querySelector(`td.${c}`)!.getAttribute("data-value"))]),
    );
    const [fa, fb] = [figures(a), figures(b)];
    assert.deepEqual(shown.map((r) => r[0]).sort(), Object.keys(fa).sort());
    for (const [key, va, vb, delta] of shown) {
      assert.equal(Number(va), fa[key!], `${key} of A`);
      assert.equal(Number(vb), fb[key!], `${key} of B`);
      assert.ok(Math.abs(Number(delta) - (fb[key!]! - fa[key!]!)) < 1e-9, `${key}: B − A`);
    }
    assert.equal(fb.resources, fa.resources! - 1);

    assert.deepEqual(await page.$$eval("#only-a li a", (as) => as.map((x) => x.textContent)), [removed.resource!.url]);
    assert.equal((await page.$$("#only-b li a")).length, 0);
    assert.equal(await page.$eval("#changed li a", (x) => (x as HTMLElement).dataset.a), moved.id);
    assert.equal(await page.$("#compare-warning"), null, "same page: no warning");
    for (const side of ["a", "b"]) assert.ok((await paintedPixels(page, `#compare-${side}`)) > 5000, `canvas ${side} shows its graph`);
    await page.screenshot({ path: join(ARTIFACTS, "compare.png") });

    // A listed change selects the node in both canvases: its box is filled with the selection colour.
    const draws = (): Promise<number[]> => page.$$eval("#compare-a, #compare-b", (cs) => cs.map((c) => Number((c as HTMLElement).dataset.draws)));
    const drawn = await draws();
    await page.click("#changed li a");
    await page.waitForFunction(() => document.querySelector("#compare-selection")!.textContent!.includes("→"));
    await page.waitForFunction((before: number[]) => [...document.querySelectorAll<HTMLElement>("#compare-a, #compare-b")].every((c, i) => Number(c.dataset.draws) > before[i]!), {}, drawn);
    for (const [side, file, id] of [["a", FILE_A, moved.id], ["b", FILE_B, `b-${moved.id}`]] as const) {
      const n = (await graphLayout(page, file)).nodes.find((x) => x.id === id)!;
      const fill = await page.$eval(`#compare-${side}`, (c, x, y) => {
        const [tx, ty, k] = ((c as HTMLElement).dataset.transform ?? "").split(",").map(Number) as [number, number, number];
        return [...(c as HTMLCanvasElement).getContext("2d")!.getImageData(Math.round(tx + x * k), Math.round(ty + y * k), 1, 1).data];
      }, n.x - n.width / 2 + 6, n.y - n.height / 2 + 4);
      assert.deepEqual(fill.slice(0, 3), [255, 243, 160], `${id} is highlighted in canvas ${side}`);
    }

    await page.click("#export-svg");
    const svg = readFileSync(await waitForFile(downloads, ".svg"), "utf8");
    assert.equal(svg.match(/<svg/g)?.length, 3, "one SVG holding both graphs");
    assert.match(svg, new RegExp(`data-id="${removed.id}"[^>]*><rect [^>]*class="mark"[^>]*stroke="#e00000"`));
    assert.match(svg, new RegExp(`data-id="b-${moved.id}"[^>]*><rect [^>]*class="mark"[^>]*stroke="#ff9900"`));

    await page.goto(`${viewer!.url}#view=compare&site=${encodeURIComponent(FILE_A)}&other=${encodeURIComponent(FILE_OTHER)}`, { waitUntil: "load" });
    await page.waitForSelector("#compare-b[data-drawn]", { timeout: 60_000 });
    const warning = await page.$eval("#compare-warning", (w) => w.textContent ?? "");
    assert.ok(warning.includes(a.source.url) && warning.includes("https://elsewhere.test/"), warning);
    assert.deepEqual(errors, []);
  });
});
