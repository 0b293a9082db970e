import assert from "node:assert/strict";
import { get } from "node:http";
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGraphFile } from "@pagepath/graph-builder";
import type { RunningViewer } from "@pagepath/viewer";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { ARTIFACTS, clickGraphNode, closeViewerSession, graphLayout, openViewerSession, paintedPixels, type ViewerBrowser, waitForFile } from "./viewer-browser.js";

const SITE = "fixture-multi-origin";

/** A raw GET, path sent exactly as written (no client-side normalisation of "..") */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((ok, fail) => {
    get({ hostname, port, path }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
    }).on("error", fail);
  });
}

describe("pagepath viewer", () => {
  let data = "";
  let viewer: RunningViewer | undefined;
  let chromium: ViewerBrowser | undefined;

  before(async () => {
    data = tempDir("viewer");
    const built = await runCli(["corpus", "build", "--data", data, "--only", "rules-thesis-example", "--only", "rules-timers", "--only", SITE, "--quiet-ms", "1000"]);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    const good = readFileSync(join(data, "graphs", `${SITE}.json`), "utf8");
    writeFileSync(join(data, "graphs", "broken.json"), good.slice(0, 400));
    ({ viewer, chromium } = await openViewerSession(data));
  });

  after(async () => {
    await closeViewerSession(chromium, viewer);
    if (data) rmSync(data, { recursive: true, force: true });
  });

  it("binds to 127.0.0.1 by default", () => {
    assert.equal(viewer!.host, "127.0.0.1");
    assert.match(viewer!.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("serves files inside the directory and nothing outside it", async () => {
    const inside = await rawGet(viewer!.url, `/files/graphs/${SITE}.json`);
    assert.equal(inside.status, 200);
    // A link inside the directory that points out of it is outside too.
    symlinkSync("/etc", join(data, "etc-link"));
    for (const path of [
      "/files/etc-link/passwd",
      "/files/../../../../etc/passwd",
      "/files/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "/files/..%2f..%2f..%2f..%2fetc%2fpasswd",
      "/static/../../../../etc/passwd",
      "/ui/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json",
      "/api/graph?file=../../../../etc/passwd",
      "/api/layout?file=%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ]) {
      const r = await rawGet(viewer!.url, path);
      assert.ok(r.status === 403 || r.status === 404, `${path} gave ${r.status}`);
      assert.doesNotMatch(r.body, /root:|"name": "@pagepath/, path);
    }
  });

  it("indexes the graphs, shows the corrupt one as an error row, and drives index, graph, details, timeline and export", async () => {
    const { page, errors, downloads } = chromium!;
    const g = readGraphFile(join(data, "graphs", `${SITE}.json`));
    await page.goto(viewer!.url, { waitUntil: "load" });
    await page.waitForSelector(`tr[data-file="graphs/${SITE}.json"]`);
    const rows = await page.$$eval("tbody tr", (trs) => trs.map((tr) => ({ cls: tr.className, text: tr.textContent ?? "" })));
    assert.equal(rows.filter((r) => r.cls !== "error").length, 3, JSON.stringify(rows));
    const broken = rows.find((r) => r.cls === "error");
    assert.match(broken?.text ?? "", /broken: cannot be shown: .*broken\.json/);
    await page.screenshot({ path: join(ARTIFACTS, "index.png") });
    // At the common widths every header fits its column and overlaps no neighbour (a screenshot of each kept).
    for (const width of [1280, 1920]) {
      await page.setViewport({ width, height: 900 });
      const heads = await page.$$eval("table.sites thead th", (ths) => ths.map((th) => {
        const r = th.getBoundingClientRect();
        return { text: th.textContent ?? "", left: r.left, right: r.right, fits: th.scrollWidth <= th.clientWidth + 1, width: th.clientWidth, needs: th.scrollWidth };
      }));
      assert.ok(heads.length >= 5, JSON.stringify(heads));
      for (const [i, h] of heads.entries()) {
        assert.ok(h.fits, `at ${width} px the header "${h.text}" needs ${h.needs} px and has ${h.width}`);
        if (i > 0) assert.ok(h.left >= heads[i - 1]!.right - 0.5, `at ${width} px "${h.text}" overlaps "${heads[i - 1]!.text}"`);
      }
      await page.screenshot({ path: join(ARTIFACTS, `index-${width}.png`) });
    }
    await page.setViewport({ width: 1400, height: 900 });

    await page.click(`tr[data-file="graphs/${SITE}.json"] a.open-site`);
    await page.waitForSelector("canvas.graph-canvas[data-drawn]", { timeout: 60_000 });
    const layout = await graphLayout(page, `graphs/${SITE}.json`);
    assert.equal(layout.nodes.length, g.nodes.filter((n) => n.excluded === null).length);
    assert.ok((await paintedPixels(page)) > 5000, "the canvas shows the graph");
    // The legend names every kind drawn, in the colour the layout gave its nodes, and the edge styles.
    const legend = await page.$$eval("ul.graph-legend li", (ls) => ls.map((l) => ({ kind: (l as HTMLElement).dataset.kind ?? null, color: (l as HTMLElement).dataset.color ?? null, text: l.textContent ?? "" })));
    const drawnKinds = new Map(g.nodes.filter((n) => n.excluded === null).map((n) => [n.kind, layout.nodes.find((d) => d.id === n.id)!.color]));
    assert.deepEqual(new Map(legend.filter((l) => l.kind).map((l) => [l.kind, l.color])), drawnKinds);
    assert.ok(legend.some((l) => /critical path: thick/.test(l.text)) && legend.some((l) => /inferred .*: dashed/.test(l.text)), JSON.stringify(legend));
    // And the rules the graph's edges follow, each with its count and what it means.
    await page.click("ul.graph-legend li.edge-rules summary");
    const rules = await page.$$eval("ul.graph-legend li.edge-rules tr", (rs) => rs.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent ?? "")));
    const counts = new Map<string, number>();
    for (const e of g.edges) counts.set(e.rule, (counts.get(e.rule) ?? 0) + 1);
    assert.deepEqual(new Map(rules.map(([rule, n]) => [rule!, Number(n)])), counts);
    assert.ok(rules.every(([, , meaning]) => meaning && !/see docs/.test(meaning)), `a rule without its meaning: ${JSON.stringify(rules)}`);
    assert.ok(await page.$eval("ul.graph-legend li.edge-rules table", (t) => (t as HTMLElement).offsetHeight > 0), "the rules show once unfolded");
    // Folded again: the open table moves the canvas, whose node positions the clicks below use.
    await page.click("ul.graph-legend li.edge-rules summary");
    await page.screenshot({ path: join(ARTIFACTS, "graph.png") });

    const resource = g.nodes.find((n) => n.kind === "resource" && n.excluded === null && n.resource?.serverDelayMs !== null)!;
    await clickGraphNode(page, layout, resource.id);
    await page.waitForSelector('#details dd[data-field="url"]');
    const details = await page.$eval("#details", (d) => d.textContent ?? "");
    assert.ok(details.includes(resource.resource!.url), details);
    assert.match(details, /server delay/);
    assert.match(details, /critical-path rank/);
    const inRule = g.edges.find((e) => e.to === resource.id)!;
    assert.ok((await page.$$eval("#details li.edge-in", (ls) => ls.map((l) => l.textContent ?? ""))).some((t) => t.includes(inRule.rule) && t.includes(inRule.how)));
    assert.match(page.url(), new RegExp(`node=${encodeURIComponent(resource.id)}`));
    await page.screenshot({ path: join(ARTIFACTS, "details.png") });

    await page.click("#export-svg");
    const svg = readFileSync(await waitForFile(downloads, ".svg"), "utf8");
    assert.match(svg, /^<svg/);
    for (const n of g.criticalPath.nodes) assert.ok(svg.includes(`data-id="${n}"`), `exported SVG has node ${n}`);
    assert.equal(svg.match(/<g data-id=/g)?.length, layout.nodes.length, "exported SVG has every drawn node");
    assert.ok(svg.includes('stroke-dasharray="5,3"'), "inferred edges are dashed");
    rmSync(join(downloads, readdirSync(downloads).find((f) => f.endsWith(".svg"))!));

    // Wheel zoom redraws the canvas at a new scale.
    const before = await page.$eval("canvas.graph-canvas", (c) => Number((c as HTMLElement).dataset.draws));
    const box = (await page.$("canvas.graph-canvas"))!;
    const { x, y, width, height } = (await box.boundingBox())!;
    await page.mouse.move(x + width / 2, y + height / 2);
    await page.mouse.wheel({ deltaY: -300 });
    await page.waitForFunction((n) => Number((document.querySelector("canvas.graph-canvas") as HTMLElement).dataset.draws) > n, {}, before);

    // The iframe collapses into one box, and clicking the box expands it again.
    const frameNodes = g.nodes.filter((n) => n.excluded === null && n.frameId !== g.mainFrame).length;
    assert.ok(frameNodes > 0, "the fixture has an iframe");
    await page.click("#collapse-frames");
    await page.waitForSelector("canvas.graph-canvas[data-drawn]");
    await page.click("#export-svg");
    const collapsedSvg = readFileSync(await waitForFile(downloads, ".svg"), "utf8");
    assert.equal(collapsedSvg.match(/<g data-id=/g)?.length, layout.nodes.length - frameNodes + 1);
    assert.match(collapsedSvg, /data-id="collapsed:frame:/);
    await page.screenshot({ path: join(ARTIFACTS, "graph-collapsed.png") });
    await page.click("#collapse-frames");

    await page.click("#nav-timeline");
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    assert.equal((await page.$$("g.bar")).length, g.nodes.length);
    await page.screenshot({ path: join(ARTIFACTS, "timeline.png"), fullPage: true });

    // The deep link restores view, site and node after a reload.
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]");
    await page.waitForSelector('#details dd[data-field="url"]');
    assert.ok(existsSync(join(ARTIFACTS, "timeline.png")));
    assert.deepEqual(errors, []);
  });
});
