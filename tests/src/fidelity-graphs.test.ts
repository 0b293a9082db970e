import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serveSite, type RunningSite } from "@pagepath/corpus";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildGraph, loadRecording, type Graph, type GraphNode } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { tempDir } from "./fixture-profile.js";
import { FIDELITY_PAGES, fidelitySiteDir, profileFidelityPages, type FidelityPage } from "./fidelity-fixtures.js";

/** The graph's edges into the node of `url`'s resource, as "rule from-kind:from-url". */
function parentsOf(g: Graph, url: string): string[] {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const node = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === url);
  assert.ok(node, `no resource node for ${url}`);
  return g.edges.filter((e) => e.to === node.id).map((e) => `${e.rule} ${describeNode(byId.get(e.from)!)}`);
}

function describeNode(n: GraphNode): string {
  if (n.kind === "resource" || n.kind === "download") return `${n.kind}:${n.resource!.url}`;
  return n.kind;
}

describe("graphs of the fidelity fixture pages, profiled in Chromium", () => {
  let site: RunningSite;
  const graphs = new Map<FidelityPage, Graph>();
  const recordings = new Map<FidelityPage, string>();
  before(async () => {
    site = await serveSite(fidelitySiteDir());
    const pages = Object.keys(FIDELITY_PAGES) as FidelityPage[];
    for (const [page, dir] of await profileFidelityPages(site, tempDir("fidelity"), pages)) {
      graphs.set(page, buildGraph(loadRecording(dir)));
      recordings.set(page, dir);
    }
  });
  after(async () => site?.close());

  const cdn = (path: string) => `https://cdn.fidelity.test/${path}`;
  const scriptNode = (g: Graph, url: string) => g.nodes.find((n) => n.kind === "script" && n.script!.url === url && (n.script!.segment ?? 0) === 0);
  const edgesInto = (g: Graph, node: GraphNode) => {
    const byId = new Map(g.nodes.map((n) => [n.id, n]));
    return g.edges.filter((e) => e.to === node.id).map((e) => `${e.rule} ${describeNode(byId.get(e.from)!)}`);
  };

  it("an ES-module chain three deep: each import hangs off the module that imports it, and the entry runs after all three", () => {
    const g = graphs.get("moduleChain")!;
    assert.ok(parentsOf(g, cdn("m/b.mjs")).includes(`module-import resource:${cdn("m/a.mjs")}`), parentsOf(g, cdn("m/b.mjs")).join(", "));
    assert.ok(parentsOf(g, cdn("m/c.mjs")).includes(`module-import resource:${cdn("m/b.mjs")}`), parentsOf(g, cdn("m/c.mjs")).join(", "));
    const run = scriptNode(g, cdn("m/a.mjs"));
    assert.ok(run, "the entry module's evaluation is a script node");
    const into = edgesInto(g, run);
    for (const m of ["a", "b", "c"]) assert.ok(into.includes(`R10 resource:${cdn(`m/${m}.mjs`)}`), `the evaluation waits for ${m}.mjs; its parents: ${into.join(", ")}`);
  });

  it("a dynamic import(): the module hangs off the script that imported it and runs once it arrives, not after parsing", () => {
    const g = graphs.get("dynamicImport")!;
    assert.ok(parentsOf(g, cdn("m/lazy.mjs")).some((p) => p === "R2 script"), parentsOf(g, cdn("m/lazy.mjs")).join(", "));
    const run = scriptNode(g, cdn("m/lazy.mjs"));
    assert.ok(run, "the imported module's evaluation is named after it");
    const into = edgesInto(g, run);
    assert.ok(into.includes(`R10 resource:${cdn("m/lazy.mjs")}`), into.join(", "));
    assert.ok(!into.some((p) => p.startsWith("R17")), `import() is not deferred: ${into.join(", ")}`);
    const lazy = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("m/lazy.mjs"))!;
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    assert.ok(!g.edges.some((e) => e.from === lazy.id && e.to === load), "a module fetched for import() does not hold the load event");
  });

  it("many images behind blocking head scripts: one parse chunk marks where the parser reached <body>", () => {
    const g = graphs.get("manyImages")!;
    const reached = g.nodes.filter((n) => n.kind === "parse" && n.parse!.bodyReached);
    assert.equal(reached.length, 1);
    // The tag is on line 7 (0-based 6), after both head scripts: the chunk after the second one.
    const chunk = reached[0]!.parse!;
    assert.ok(chunk.startLine! <= 6 && chunk.endLine! >= 6, `chunk L${chunk.startLine}-${chunk.endLine} holds the <body> line`);
  });

  it("many images behind blocking head scripts: each image the final layout drew in the viewport is marked so, whether or not the recording saw it raised", () => {
    const g = graphs.get("manyImages")!;
    const layout = readRecording(recordings.get("manyImages")!).layout;
    assert.ok(layout, "the recording has a layout");
    const inView = new Set(layout.images.filter((i) => i.rect !== null && i.rect[2] > i.rect[0] && i.rect[3] > i.rect[1]).map((i) => i.url));
    const images = g.nodes.filter((n) => n.kind === "resource" && n.resource!.resourceType === "Image");
    assert.ok(inView.size >= 3 && inView.size < images.length, `${inView.size} of ${images.length} images in view: some in, some below`);
    const marked = images.filter((n) => n.resource!.inViewport).map((n) => n.resource!.url);
    assert.deepEqual(new Set(marked), inView);
    for (const n of images) if (!n.resource!.inViewport) assert.equal(n.resource!.inViewport, undefined, `${n.resource!.url}: absent when not in view`);
  });

  it("a font found by CSS: it hangs off the style sheet that names it, the parse chunk that used it and the rendering whose layout asked for it", () => {
    const g = graphs.get("fontCss")!;
    const parents = parentsOf(g, cdn("font.woff2"));
    assert.ok(parents.includes("R2 css") && parents.includes("lazy-binding parse") && parents.includes("render render"), parents.join(", "));
    const render = g.nodes.find((n) => n.kind === "render" && g.edges.some((e) => e.from === n.id && e.to === g.nodes.find((r) => r.resource?.url === cdn("font.woff2"))!.id))!;
    assert.ok(render.duration > 0 && render.duration <= render.end - render.start + 1e-9, JSON.stringify(render));
    assert.ok(edgesInto(g, render).some((e) => e.startsWith("render ")), `a rendering waits for the work before it: ${edgesInto(g, render).join(", ")}`);
    // The font is asked for by style and layout, before the paint: it waits for the part of the
    // rendering up to its request only, and the rest goes on after that part.
    const font = g.nodes.find((r) => r.resource?.url === cdn("font.woff2"))!;
    assert.ok(render.end <= font.start + 1e-3, `the rendering's part that asked ends at the request (${render.end} against ${font.start} ms)`);
    const rest = g.edges.filter((e) => e.from === render.id && e.rule === "continuation").map((e) => g.nodes.find((n) => n.id === e.to)!);
    for (const r of rest) assert.ok(r.kind === "render" && r.start >= render.end - 1e-6 && r.label.endsWith("(part 2)"), JSON.stringify(r));
  });

  it("scripts inserted by scripts: each hangs off the code that inserted it", () => {
    const g = graphs.get("scriptInserted")!;
    for (const url of [cdn("js/loader.js"), cdn("js/chunk-1.js"), cdn("js/chunk-2.js"), cdn("img/from-chunk.png")]) {
      assert.ok(parentsOf(g, url).includes("R2 script"), `${url}: ${parentsOf(g, url).join(", ")}`);
    }
    // Each holds load until it has run, not only until its file is in (HTML's "delay the load event").
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    for (const url of [cdn("js/loader.js"), cdn("js/chunk-1.js"), cdn("js/chunk-2.js")]) {
      const runs = g.nodes.filter((n) => n.kind === "script" && n.script!.url === url);
      const holding = runs.filter((n) => g.edges.some((e) => e.from === n.id && e.to === load && e.rule === "completion-load"));
      assert.equal(holding.length, 1, `${url}: one run of it holds load (${runs.map((n) => n.id).join(", ")})`);
      assert.ok(holding[0]!.end <= g.recorded.load! + 1e-6, `${url} ran by load (${holding[0]!.end} against ${g.recorded.load} ms)`);
    }
  });

  it("an XHR started before load does not hold the load event", () => {
    const g = graphs.get("xhrBeforeLoad")!;
    const xhr = g.nodes.find((n) => n.kind === "resource" && n.resource!.url.endsWith("/api/slow.json"))!;
    assert.ok(xhr, "the XHR is in the graph");
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    assert.ok(!g.edges.some((e) => e.from === xhr.id && e.to === load), "no completion-load edge from the XHR");
    assert.ok(g.recorded.load! < xhr.end, `Chromium fired load (${g.recorded.load} ms) before the XHR ended (${xhr.end} ms)`);
    const image = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("img/photo-1.png"))!;
    assert.ok(g.edges.some((e) => e.from === image.id && e.to === load), "the image does hold it");
  });

  it("an image a timer requested after the recording's load: emulated with its timer, raced against load, off the critical path", () => {
    const g = graphs.get("timerImage")!;
    const late = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("img/timer-late.png"))!;
    assert.ok(late, "the timer's image is in the graph");
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    assert.ok(g.recorded.load! < late.start, `on loopback Chromium fired load (${g.recorded.load} ms) before the timer's image was requested (${late.start} ms)`);
    assert.equal(late.excluded, null, "emulated, not left out as after-load");
    assert.ok(g.edges.some((e) => e.from === late.id && e.to === load && e.rule === "completion-load-raced"), edgesInto(g, g.nodes.find((n) => n.id === load)!).join(", "));
    const timer = g.nodes.find((n) => n.kind === "timer" && g.edges.some((e) => e.from === n.id && e.to === late.id));
    assert.ok(timer && timer.excluded === null, "the timer that requests it is emulated too");
    assert.ok(!g.criticalPath.nodes.includes(late.id), "the recorded load did not wait for it");
  });

  it("an image a timer requested before the recording's load: raced against load, not held by it", () => {
    const g = graphs.get("timerBeforeLoad")!;
    const raced = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("img/timer-raced.png"))!;
    assert.ok(raced, "the timer's image is in the graph");
    const load = g.frames.find((f) => f.id === g.mainFrame)!.load;
    assert.ok(raced.start < g.recorded.load!, `on loopback the timer's image was requested (${raced.start} ms) before load (${g.recorded.load} ms)`);
    assert.deepEqual(g.edges.filter((e) => e.from === raced.id && e.to === load).map((e) => e.rule), ["completion-load-raced"]);
    const held = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("img/timer-held.png"))!;
    assert.deepEqual(g.edges.filter((e) => e.from === held.id && e.to === load).map((e) => e.rule), ["completion-load"], "the parser's image holds load");
  });

  it("a script a loader's timer requests once load waits for nothing more from the network: left out after load, not raced", () => {
    const g = graphs.get("timerAfterParse")!;
    const late = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("js/head-2.js"))!;
    assert.ok(late, "the loader's script is in the graph");
    assert.ok(g.recorded.load! < late.start, `on loopback Chromium fired load (${g.recorded.load} ms) before the loader asked for it (${late.start} ms)`);
    assert.notEqual(late.excluded, null, "left out of the emulation");
    assert.ok(!g.edges.some((e) => e.from === late.id && e.rule === "completion-load-raced"), "not raced against load");
  });

  it("a page a DOMContentLoaded handler reveals: its first paint waits for the handler, which ran in the frame that showed the content after the text was parsed", () => {
    const g = graphs.get("readyReveal")!;
    const fcp = g.nodes.find((n) => n.kind === "fcp")!;
    const into = g.edges.filter((e) => e.to === fcp.id).map((e) => g.nodes.find((n) => n.id === e.from)!);
    const handler = into.filter((n) => n.kind === "event" && n.label.startsWith("DOMContentLoaded"));
    assert.ok(handler.length > 0, `the first paint waits for the DOMContentLoaded handler: ${into.map((n) => n.label).join(", ")}`);
    const handlerEnd = Math.max(...handler.map((n) => n.end));
    assert.ok(handlerEnd - Math.min(...handler.map((n) => n.start)) >= 140, "the handler's 150 ms of work is in the graph");
    assert.ok(fcp.start >= handlerEnd - 1e-3, `the paint's rendering (from ${fcp.start} ms) follows the handler (ends ${handlerEnd} ms)`);
  });

  it("a preconnect: a node opening an anonymous connection to its origin once the bytes up to its tag are in, or the parser reaches it", () => {
    const g = graphs.get("preconnect")!;
    const hints = g.nodes.filter((n) => n.kind === "preconnect");
    assert.deepEqual(hints.map((n) => n.preconnect), [{ origin: "https://cdn.fidelity.test", privacyMode: true }]);
    const parents = g.edges.filter((e) => e.to === hints[0]!.id).map((e) => `${e.rule} ${g.nodes.find((n) => n.id === e.from)!.kind}`);
    assert.deepEqual(parents.sort(), ["R1 parse", "preload download"]);
    assert.ok(!g.edges.some((e) => e.from === hints[0]!.id), "nothing waits for it");
    const font = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("fonts/late.woff2"))!;
    assert.equal(font.resource!.privacyMode, true, "the font goes over the anonymous connection the hint opened");
  });

  it("an iframe's style sheet is the frame's work: its evaluation, which the trace gives no frame, belongs to the frame that fetched it, and nothing of the page waits for it", () => {
    const g = graphs.get("frameStyle")!;
    const frame = g.frames.find((f) => f.url === cdn("frames/styled.html"))!;
    assert.ok(frame, "the iframe is a frame of the graph");
    const sheet = g.nodes.find((n) => n.kind === "css" && n.css!.url === cdn("css/frame.css"))!;
    assert.ok(sheet, "the frame's style sheet was evaluated");
    assert.equal(sheet.frameId, frame.id);
    const inPage = g.edges.filter((e) => e.from === sheet.id).map((e) => g.nodes.find((n) => n.id === e.to)!).filter((n) => n.frameId === g.mainFrame);
    assert.deepEqual(inPage.map((n) => n.label), [], "no node of the main frame waits for the frame's style sheet");
  });

  it("a large document: the head's resources wait only for the bytes up to their tags, not for the whole document", () => {
    const g = graphs.get("largeHead")!;
    const chunks = g.nodes.filter((n) => n.kind === "download" && n.frameId === g.mainFrame);
    const size = chunks.reduce((s, c) => s + c.chunk!.bytes, 0);
    assert.ok(size > 150_000, `the document is large (${size} bytes)`);
    for (const url of [cdn("css/site.css"), cdn("js/app.js"), cdn("img/hero.png")]) {
      const node = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === url)!;
      const from = g.edges.filter((e) => e.to === node.id && e.rule === "preload").map((e) => g.nodes.find((n) => n.id === e.from)!);
      assert.equal(from.length, 1, `${url} was found by the preload scanner`);
      const upTo = from[0]!.chunk!.offset + from[0]!.chunk!.bytes;
      assert.ok(upTo < 10_000, `${url} waits for the document's first ${upTo} bytes only`);
    }
    // The parser reaches <body> as the bytes up to the tag arrive: the chunk that reached it says
    // where, and a download chunk ends there (or within a packet after, where cuts merged).
    const html = readFileSync(join(fidelitySiteDir(), "hosts", "www.fidelity.test", "large-head.html"), "latin1");
    const bodyByte = html.indexOf("<body>") + "<body>".length;
    const reached = g.nodes.filter((n) => n.kind === "parse" && n.frameId === g.mainFrame && n.parse!.bodyReached);
    assert.deepEqual(reached.map((n) => n.parse!.bodyByte), [bodyByte]);
    const ends = chunks.map((c) => c.chunk!.offset + c.chunk!.bytes);
    assert.ok(ends.some((e) => e >= bodyByte && e < bodyByte + 1460), `a chunk ends at the <body> tag (byte ${bodyByte}): chunks end at ${ends.join(", ")}`);
  });

  it("a prefetched page the page never reads is archived with its body, and does not hold load", () => {
    const rec = readRecording(recordings.get("prefetch")!);
    const entry = rec.archive.find((e) => e.url === "https://www.fidelity.test/next-page.html");
    assert.ok(entry, "the prefetch is in the archive");
    const file = readFileSync(join(fidelitySiteDir(), "hosts", "www.fidelity.test", "next-page.html"));
    assert.equal(entry.bodyMissing, null, String(entry.bodyMissing));
    assert.equal(entry.body?.size, file.length, "the archived body is the file");
    assert.deepEqual(readFileSync(join(recordings.get("prefetch")!, "bodies", entry.body!.sha256)), file);
    const g = graphs.get("prefetch")!;
    const node = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === entry.url)!;
    assert.ok(!g.edges.some((e) => e.from === node.id && e.rule === "completion-load"));
  });

  it("a synchronous XHR: the script goes on only once the response is in, and the wait is not its own time", () => {
    const g = graphs.get("syncXhr")!;
    const xhr = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === "https://www.fidelity.test/api/sync.json")!;
    assert.ok(xhr, "the XHR is in the graph");
    const after = g.edges.filter((e) => e.from === xhr.id && e.rule === "sync-xhr").map((e) => g.nodes.find((n) => n.id === e.to)!);
    assert.equal(after.length, 1, "one sync-xhr edge, into the rest of the script");
    assert.equal(after[0]!.kind, "script");
    assert.ok(after[0]!.duration < 50, `the script's rest takes ${after[0]!.duration} ms of its own, not the 150 ms wait`);
    // The parser waits; the preload scanner does not: it finds the image behind the script.
    const image = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn("img/photo-2.png"))!;
    assert.ok(image.resource!.preloaded && image.start < xhr.end, "the image is requested while the XHR is out");
  });

  it("a page entered with a #fragment keeps its parser edges: its CSS and script hang off its parse chunks", () => {
    const g = graphs.get("fragment")!;
    assert.deepEqual(g.warnings.filter((w) => /no parent found/.test(w)), []);
    assert.ok(g.nodes.some((n) => n.kind === "parse"), "the document has parse chunks");
    for (const url of ["https://cdn.fidelity.test/css/site.css", "https://cdn.fidelity.test/js/app.js"]) {
      const parents = parentsOf(g, url);
      assert.ok(parents.some((p) => p === "R1 parse"), `${url} hangs off a parse chunk (R1); its parents: ${parents.join(", ")}`);
    }
  });

  const www = (path: string) => `https://www.fidelity.test/${path}`;
  const loadEdges = (g: Graph, url: string) => {
    const node = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === url)!;
    return g.edges.filter((e) => e.from === node.id && e.to === g.frames.find((f) => f.id === g.mainFrame)!.load).map((e) => e.rule);
  };

  it("CSS @import and a background image: the imported sheet hangs off the importing sheet's evaluation, the image off the rule's, and the image races load", () => {
    const g = graphs.get("cssImport")!;
    assert.ok(parentsOf(g, cdn("css/base.css")).includes("R2 css"), parentsOf(g, cdn("css/base.css")).join(", "));
    const banner = parentsOf(g, cdn("img/banner.png"));
    assert.ok(banner.includes("R2 css") && banner.includes("lazy-binding parse") && banner.includes("render render"), banner.join(", "));
    assert.deepEqual(loadEdges(g, cdn("img/banner.png")), ["completion-load-raced"]);
    assert.ok(!g.nodes.some((n) => n.kind === "resource" && n.resource!.url === cdn("img/never.png")), "an image no element uses is not fetched");
  });

  it("a script after a style sheet runs only once every sheet that sheet imports is in, two imports deep", () => {
    const g = graphs.get("importBeforeScript")!;
    const script = scriptNode(g, cdn("js/after-sheets.js"));
    assert.ok(script, "no evaluation of after-sheets.js");
    const byId = new Map(g.nodes.map((n) => [n.id, n]));
    const sheets = g.edges.filter((e) => e.to === script.id && e.rule === "R11").map((e) => byId.get(e.from)!.css!.url);
    for (const sheet of ["css/outer.css", "css/inner.css", "css/deep.css"]) assert.ok(sheets.includes(cdn(sheet)), `${sheet} does not hold the script: ${sheets.join(", ")}`);
  });

  it("lazy images: one in view hangs off the parse chunk holding its tag and races load; one far below is never fetched", () => {
    const g = graphs.get("lazyImages")!;
    // Layout found it: when a rendering task of the trace holds the request, the image hangs off it too.
    const near = parentsOf(g, cdn("img/lazy-near.png"));
    assert.ok(near.includes("lazy-binding parse") && near.every((p) => p === "lazy-binding parse" || p === "render render"), near.join(", "));
    assert.deepEqual(loadEdges(g, cdn("img/lazy-near.png")), ["completion-load-raced"]);
    assert.deepEqual(loadEdges(g, cdn("img/eager-far.png")), ["completion-load"], "an eager image far below is fetched and holds load");
    assert.ok(!g.nodes.some((n) => n.kind === "resource" && n.resource!.url === cdn("img/lazy-far.png")));
  });

  it("a dedicated worker: what it requests hangs off its script, after importScripts off the imported script, and none of it holds load", () => {
    const g = graphs.get("worker")!;
    assert.deepEqual(parentsOf(g, www("js/worker-helper.js")), [`worker resource:${www("js/worker.js")}`]);
    assert.deepEqual(parentsOf(g, www("api/worker-data.json")), [`worker resource:${www("js/worker-helper.js")}`]);
    for (const url of ["js/worker.js", "js/worker-helper.js", "api/worker-data.json"]) assert.deepEqual(loadEdges(g, www(url)), [], `${url} does not hold load`);
    const rec = readRecording(recordings.get("worker")!);
    assert.ok(rec.archive.find((e) => e.url === www("js/worker.js"))?.body, "the worker's script is archived with its body");
  });

  it("an import map, a modulepreload and an async module: the module runs once the preloaded import is in, not after parsing", () => {
    const g = graphs.get("modulePreload")!;
    const run = scriptNode(g, cdn("m/app-async.mjs"));
    assert.ok(run, "the async module's evaluation is a script node");
    const into = edgesInto(g, run);
    assert.ok(into.includes(`R10 resource:${cdn("m/lib.mjs")}`), `the evaluation waits for lib.mjs, which the import map names; its parents: ${into.join(", ")}`);
    assert.ok(!into.some((p) => p.startsWith("R17")), `an async module does not wait for parsing: ${into.join(", ")}`);
    assert.ok(!g.edges.some((e) => e.from === run.id && e.rule === "completion-dcl"), "an async module does not hold DOMContentLoaded");
  });

  it("a headline in a swap web font: its largest contentful paint waits for neither that font nor the block font of an icon beside it", () => {
    const g = graphs.get("fontDisplay")!;
    const lcp = g.nodes.find((n) => n.kind === "lcp");
    assert.ok(lcp?.lcp, "the page has a largest contentful paint with its element");
    assert.equal(lcp.lcp.type, "text", lcp.label);
    assert.match(lcp.lcp.font?.family ?? "", /^"?Headline Sans"?,/, "the recording names the headline's computed font");
    assert.equal(lcp.lcp.font?.weight, "700");
    const fonts = edgesInto(g, lcp).filter((p) => p.includes("/fonts/"));
    assert.deepEqual(fonts, [], "no web font holds the paint");
    for (const font of ["headline-400", "headline-700", "icons"]) {
      const node = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === cdn(`fonts/${font}.woff2`));
      assert.ok(node && node.end < lcp.start, `${font}.woff2 arrived before the paint in the recording`);
    }
  });

  // Each font is served later than its block period ends: 2 s after navigation start for auto in
  // Chromium, 3 s after the font's request for block.
  for (const [page, display, periodEnds] of [["fontAuto", "auto", (_: GraphNode) => 2000], ["fontBlock", "block", (font: GraphNode) => font.start + 3000]] as const) {
    it(`a headline in a slow font-display: ${display} web font: Chromium paints it in a fallback font when the block period ends, and the largest contentful paint waits for the font through font-display-${display}, which says until when`, () => {
      const g = graphs.get(page)!;
      const lcp = g.nodes.find((n) => n.kind === "lcp");
      assert.equal(lcp?.lcp?.type, "text", lcp?.label);
      const url = cdn(`fonts/${display}-headline.woff2`);
      assert.deepEqual(edgesInto(g, lcp).filter((p) => p.includes("/fonts/")), [`font-display-${display} resource:${url}`]);
      const font = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === url)!;
      assert.ok(lcp.end < font.end, `painted at ${lcp.end.toFixed(0)} ms, before the font arrived at ${font.end.toFixed(0)} ms`);
      assert.ok(Math.abs(lcp.end - periodEnds(font)) < 300, `painted at ${lcp.end.toFixed(0)} ms, the block period ended at ${periodEnds(font).toFixed(0)} ms`);
    });
  }

  it("a large script at the end of the body: the first contentful paint waits for the heading's parse chunk, not for the script", () => {
    const g = graphs.get("paintBeforeScript")!;
    const fcp = g.nodes.find((n) => n.kind === "fcp");
    assert.ok(fcp, "the page has a first contentful paint");
    const into = edgesInto(g, fcp);
    assert.ok(!into.some((p) => p.includes("script")), `the script after the content does not hold the paint: ${into.join(", ")}`);
  });
});
