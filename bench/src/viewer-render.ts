import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page } from "puppeteer-core";
import { serveSite, siteProfileOptions } from "@pagepath/corpus";
import { buildGraph, loadRecording, type Graph } from "@pagepath/graph-builder";
import { DEFAULT_CHROMIUM, launchChromium, recordPage, writeRecording, type LaunchedChromium } from "@pagepath/profiler";
import { startViewer } from "@pagepath/viewer";
import { tempDir } from "@pagepath/temp-dirs";
import { grownGraph } from "./grown-graph.js";
import { writeLargeSite } from "./large-site.js";
import { driveZoomAndPan } from "./viewer-drive.js";

/** Issue 5's floor for the generated graph; the generated page is sized to pass it. */
const MIN_GENERATED_NODES = 2000;
/** Issue 25's size: the generated graph grown to this many nodes. */
const GROWN_NODES = 10_000;
const VIEWPORT = { width: 1400, height: 900 };

export interface ViewerOpenResult {
  graph: string;
  nodes: number;
  edges: number;
  /** As the view opens (big graphs with groups of like nodes collapsed), or after "expand groups". */
  grouping: "as opened" | "expanded";
  /** Nodes drawn: the graph's shown nodes less those inside collapsed groups, plus one per group. */
  drawnNodes: number;
  /** Navigation start (or the "expand groups" click) to the graph drawn on the canvas, layout not cached on the server (dot runs). */
  coldMs: number;
  /** The same with the layout cached (a second opening, or after the server's background pre-layout). */
  warmMs: number;
  /** The layout engine's own time (dot, or the layered layout past dot's reach), measured by the server in the cold opening. */
  layoutMs: number;
  /** Cold opening / the layout alone: what the viewer adds to the layout engine. */
  coldOverLayout: number;
  /** Frames per second while zooming and panning continuously (moved snapshots), the whole graph in view and zoomed in. */
  fpsFit: number;
  fpsZoomed: number;
  /** Longest redraw interval seen while moving (ms): a stutter shows here, not in the mean. */
  worstFrameMs: number;
  /** One full-quality drawing, after the movement stops, whole graph in view and zoomed in (ms). */
  fullDrawMsFit: number;
  fullDrawMsZoomed: number;
  /** Frames per second the page gets with nothing to draw, measured in the same browser. */
  fpsReference: number;
}

/**
 * Opens graphs in the real viewer in headless Chromium and measures how long until the layout is
 * drawn (cold: the server runs dot; warm: cached) and the redraw rate while zooming and panning.
 * Graphs: the largest in `corpusGraphs` (if it has any) and a generated page of over 2,000 nodes,
 * profiled and built here.
 */
export async function benchViewer(corpusGraphs: string, seconds: number, shots: string, log: (l: string) => void): Promise<{ results: ViewerOpenResult[]; missing: string[] }> {
  const root = tempDir("bench-viewer");
  const missing: string[] = [];
  try {
    const served = join(root, "served");
    mkdirSync(served);
    const largest = largestGraph(corpusGraphs);
    if (largest) copyFileSync(largest, join(served, "largest-corpus-graph.json"));
    else missing.push(`no graphs in ${corpusGraphs}: the largest corpus graph was not measured (run \`pagepath corpus build\` first)`);
    log("  profiling a generated page of 2,200 images for a graph of over 2,000 nodes");
    const generated = await generatedGraph(root);
    if (generated.nodes.length < MIN_GENERATED_NODES) throw new Error(`the generated graph has ${generated.nodes.length} nodes, fewer than ${MIN_GENERATED_NODES}`);
    writeFileSync(join(served, "generated-graph.json"), JSON.stringify(generated));
    writeFileSync(join(served, `generated-${GROWN_NODES}-graph.json`), JSON.stringify(grownGraph(generated, GROWN_NODES)));
    const files = readdirSync(served).sort();
    const results: ViewerOpenResult[] = [];
    for (const file of files) {
      log(`  opening ${file}`);
      results.push(...(await measureGraph(served, file, seconds, join(shots, `viewer-${file.replace(/\.json$/, "")}.png`))));
    }
    return { results, missing };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The graph as the view opens it, then, if it opened with groups collapsed, with them expanded. */
async function measureGraph(served: string, file: string, seconds: number, shot: string): Promise<ViewerOpenResult[]> {
  // A server per graph, with no background pre-layout, so the first opening is truly cold.
  const viewer = await startViewer({ dir: served, port: 0, prewarm: false });
  let chromium: LaunchedChromium | undefined;
  try {
    chromium = await launchChromium({ executablePath: DEFAULT_CHROMIUM, extraArgs: [`--window-size=${VIEWPORT.width},${VIEWPORT.height}`] });
    const browser = chromium.browser;
    const page = await browser.newPage();
    await page.setViewport(VIEWPORT);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push((e as Error).message));
    const url = `${viewer.url}#view=graph&site=${encodeURIComponent(file)}`;
    const cold = await openAndTime(page, url);
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    const warm = await openAndTime(page, url, true);
    const fpsReference = await page.evaluate(referenceFps, Math.min(seconds, 2));
    const graph = (await page.evaluate(async (f) => (await fetch(`/api/graph?file=${encodeURIComponent(f)}`)).json(), file)) as Graph;
    const row = async (grouping: ViewerOpenResult["grouping"], coldMs: number, warmMs: number, groups: string): Promise<ViewerOpenResult> => {
      const drawnNodes = await page.$eval("canvas.graph-canvas", (c) => Number((c as HTMLElement).dataset.nodes));
      const fit = await page.evaluate(driveZoomAndPan, seconds, false);
      const zoomed = await page.evaluate(driveZoomAndPan, seconds, true);
      const layout = (await page.evaluate(async (f, s) => (await fetch(`/api/layout?file=${encodeURIComponent(f)}&rankdir=LR&groups=${s}`)).json(), file, groups)) as { engine: { ms: number } };
      if (errors.length) throw new Error(`${file}: the page reported errors: ${errors.join("; ")}`);
      return {
        graph: file,
        nodes: graph.nodes.length,
        edges: graph.edges.length,
        grouping,
        drawnNodes,
        coldMs,
        warmMs,
        layoutMs: layout.engine.ms,
        coldOverLayout: coldMs / layout.engine.ms,
        fpsFit: fit.fps,
        fpsZoomed: zoomed.fps,
        worstFrameMs: Math.max(fit.worstMs, zoomed.worstMs),
        fullDrawMsFit: fit.fullDrawMs,
        fullDrawMsZoomed: zoomed.fullDrawMs,
        fpsReference,
      };
    };
    const rows = [await row("as opened", cold, warm, "auto")];
    if (await page.$eval("canvas.graph-canvas", (c) => (c as HTMLElement).dataset.nodeGroups !== "0")) {
      const expandedCold = await regroupAndTime(page, "#expand-groups");
      await regroupAndTime(page, "#collapse-groups");
      // The page keeps both layouts, so this second expansion times the drawing alone.
      const expandedWarm = await regroupAndTime(page, "#expand-groups");
      rows.push(await row("expanded", expandedCold, expandedWarm, "none"));
    }
    return rows;
  } finally {
    await chromium?.close();
    await viewer.close();
  }
}

/** Navigation start to the viewer's "graph drawn" mark (set right after the canvas draw call), on the page's own clock. */
async function openAndTime(page: Page, url: string, reload = false): Promise<number> {
  if (reload) await page.reload({ waitUntil: "load" });
  else await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("canvas.graph-canvas[data-drawn]", { timeout: 300_000 });
  return page.evaluate(() => performance.getEntriesByName("pagepath:graph-drawn")[0]!.startTime);
}

/** Click on a grouping button to the graph drawn again, on the page's own clock. */
async function regroupAndTime(page: Page, button: string): Promise<number> {
  const clicked = await page.evaluate((b) => {
    performance.clearMarks("pagepath:graph-drawn");
    const t = performance.now();
    (document.querySelector(b) as HTMLButtonElement).click();
    return t;
  }, button);
  await page.waitForFunction(() => performance.getEntriesByName("pagepath:graph-drawn").length > 0, { timeout: 600_000, polling: 100 });
  return (await page.evaluate(() => performance.getEntriesByName("pagepath:graph-drawn")[0]!.startTime)) - clicked;
}

/** Animation frames per second of an idle page: the ceiling any drawing can reach here. */
function referenceFps(seconds: number): Promise<number> {
  return new Promise((ok) => {
    let frames = 0;
    const start = performance.now();
    const tick = (now: number): void => {
      frames++;
      if (now - start < seconds * 1000) requestAnimationFrame(tick);
      else ok(frames / ((now - start) / 1000));
    };
    requestAnimationFrame(tick);
  });
}

function largestGraph(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? null;
}

async function generatedGraph(root: string): Promise<Graph> {
  const site = await serveSite(writeLargeSite(join(root, "large-site"), 2200, 30, 10));
  try {
    const { recording } = await recordPage(site.config.entry, siteProfileOptions(site, { quietMs: 500, capMs: 120_000 }));
    if (recording.manifest.status !== "complete") throw new Error(`${site.config.entry}: ${recording.manifest.reason}`);
    writeRecording(join(root, "rec"), recording);
    return buildGraph(loadRecording(join(root, "rec")));
  } finally {
    await site.close();
  }
}
