import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "puppeteer-core";
import type { RunningViewer } from "@pagepath/viewer";
import { LAYERED_ABOVE_NODES, type GroupedLayout } from "@pagepath/viewer/dist/src/server/layout.js";
import { tempDir } from "./fixture-profile.js";
import { siblingGraph, stripGraph } from "./sibling-graph.js";
import { ARTIFACTS, clickGraphNode, closeViewerSession, openViewerSession, paintedPixels, type ViewerBrowser, waitForFile } from "./viewer-browser.js";

/** 5 nodes of the test vector, 9 script fetches and their runs, 3 fonts: what no group takes. */
const UNGROUPED = 5 + 18 + 3 - 1;

/** The canvas once drawn with `nodes` scene nodes, returning its data attributes. */
async function drawn(page: Page, nodes: number): Promise<DOMStringMap> {
  await page.waitForSelector(`canvas.graph-canvas[data-drawn][data-nodes="${nodes}"]`, { timeout: 60_000 });
  return page.$eval("canvas.graph-canvas", (c) => ({ ...(c as HTMLElement).dataset }));
}

function layoutOf(page: Page, file: string, groups: string): Promise<GroupedLayout> {
  return page.evaluate(async (f, s) => (await fetch(`/api/layout?file=${encodeURIComponent(f)}&rankdir=LR&groups=${s}`)).json(), file, groups) as Promise<GroupedLayout>;
}

describe("viewer groups of like nodes", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;

  before(async () => {
    data = tempDir("viewer-groups");
    writeFileSync(join(data, "big.json"), JSON.stringify(siblingGraph(600)));
    writeFileSync(join(data, "small.json"), JSON.stringify(siblingGraph(20)));
    writeFileSync(join(data, "strip.json"), JSON.stringify(stripGraph(150)));
    writeFileSync(join(data, "huge.json"), JSON.stringify(siblingGraph(LAYERED_ABOVE_NODES)));
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("opens a big graph with its siblings grouped, expands a group on click, and expands and groups all from the toolbar", async () => {
    const { page, errors, downloads } = chromium!;
    await page.goto(`${viewer!.url}#view=graph&site=big.json`, { waitUntil: "load" });
    const grouped = await drawn(page, UNGROUPED + 1);
    assert.equal(grouped.nodeGroups, "1");
    assert.match(await page.$eval("#layout-note", (n) => n.textContent ?? ""), /^26 nodes \(601 in 1 groups\)/);
    // At fit the 26 nodes are drawn at a scale where boxes are readable, not a strip of 626.
    const fitScale = Number(grouped.transform!.split(",")[2]);
    assert.ok(fitScale >= 0.5, `fit scale ${fitScale}`);
    await page.screenshot({ path: join(ARTIFACTS, "graph-sibling-groups.png") });

    // dot placed the group as one node, with one edge in from the parser and one out to the load marker.
    const layout = await layoutOf(page, "big.json", "auto");
    const group = layout.nodeGroups.find((g) => g.collapsed)!;
    assert.equal(group.members.length, 601);
    assert.equal(layout.nodes.length, UNGROUPED + 1);
    const touching = layout.edges.filter((e) => e.from === group.id || e.to === group.id).map((e) => `${e.from}>${e.to}`);
    assert.deepEqual(touching.sort(), [`p0>${group.id}`, `${group.id}>load`]);
    assert.ok(!layout.edges.some((e) => /^img/.test(e.from) || /^img/.test(e.to)), "no edge names a grouped image");

    // The exported drawing labels the group with its count and draws it on the critical path (r0 is on it).
    await page.click("#export-svg");
    const svg = readFileSync(await waitForFile(downloads, ".svg"), "utf8");
    assert.equal(svg.match(/<g data-id=/g)?.length, UNGROUPED + 1);
    const node = svg.slice(svg.indexOf(`data-id="${group.id}"`)).split("</g>")[0]!;
    assert.match(node, /601 images requested by the parser/);
    assert.match(node, /stroke-width="3"/);

    await clickGraphNode(page, layout, group.id);
    const expanded = await drawn(page, UNGROUPED + 601);
    assert.equal(expanded.nodeGroups, "0");
    assert.equal((await layoutOf(page, "big.json", "auto")).nodeGroups[0]!.collapsed, true, "the server's default is unchanged");

    await page.click("#collapse-groups");
    await drawn(page, UNGROUPED + 1);
    await page.click("#expand-groups");
    await drawn(page, UNGROUPED + 601);
    assert.equal(await page.$eval("#expand-groups", (b) => (b as HTMLButtonElement).disabled), true);
    assert.deepEqual(errors, []);
  });

  it("draws a graph past dot's reach, expanded, with its own layered layout", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=graph&site=huge.json`, { waitUntil: "load" });
    await drawn(page, UNGROUPED + 1);
    await page.click("#expand-groups");
    const all = UNGROUPED + LAYERED_ABOVE_NODES + 1;
    await drawn(page, all);
    assert.match(await page.$eval("#layout-note", (n) => n.textContent ?? ""), new RegExp(`^${all} nodes, layered layout \\(too many nodes for dot\\) \\d+ ms, \\d+ edges drawn straight`));
    assert.ok((await paintedPixels(page)) > 10_000, "the graph is drawn");
    await page.screenshot({ path: join(ARTIFACTS, "graph-layered-layout.png") });
    assert.deepEqual(errors, []);
  });

  it("opens a graph too long to read at fit zoomed in where labels read, at its start, with an overview that moves the view", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=graph&site=strip.json`, { waitUntil: "load" });
    const open = await drawn(page, 5 + 300);
    const [x0, , k0] = open.transform!.split(",").map(Number) as [number, number, number];
    assert.ok(k0 >= 0.5, `opened at scale ${k0}, where labels are not drawn`);
    assert.ok(x0 > 0, `the view starts where the graph does (x offset ${x0})`);
    const overview = (await page.$("canvas.graph-overview"))!;
    assert.ok(overview, "an overview of the whole graph is shown");
    const view = async () => (await overview.evaluate((c) => (c as HTMLElement).dataset.view!.split(",").map(Number))) as [number, number, number, number];
    const [v0, , v1] = await view();
    assert.ok(v0 < 5 && v1 - v0 < 100, `the outline marks the start of the graph, a part of it: ${v0}..${v1}`);
    await page.screenshot({ path: join(ARTIFACTS, "graph-strip-overview.png") });

    // A click near the overview's right end brings the end of the graph into view, at the same zoom.
    const box = (await overview.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
    await page.waitForFunction((x) => Number((document.querySelector("canvas.graph-canvas") as HTMLElement).dataset.transform!.split(",")[0]) < x, { timeout: 10_000 }, x0 - 1000);
    const moved = await page.$eval("canvas.graph-canvas", (c) => (c as HTMLElement).dataset.transform!.split(",").map(Number));
    assert.equal(moved[2], k0, "the zoom stays");
    const [w0, , w1] = await view();
    assert.ok(w0 < box.width * 0.9 && box.width * 0.9 < w1 + 1, `the outline moved to where the click was: ${w0}..${w1}`);

    // fit still shows all of it.
    await page.click("#fit");
    await page.waitForFunction(() => Number((document.querySelector("canvas.graph-canvas") as HTMLElement).dataset.transform!.split(",")[2]) < 0.5, { timeout: 10_000 });
    assert.deepEqual(errors, []);
  });

  it("opens a small graph ungrouped, and groups it from the toolbar", async () => {
    const { page, errors } = chromium!;
    await page.goto(`${viewer!.url}#view=graph&site=small.json`, { waitUntil: "load" });
    const open = await drawn(page, UNGROUPED + 21);
    assert.equal(open.nodeGroups, "0");
    await page.click("#collapse-groups");
    const grouped = await drawn(page, UNGROUPED + 1);
    assert.equal(grouped.nodeGroups, "1");
    assert.deepEqual(errors, []);
  });
});
