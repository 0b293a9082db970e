import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { DEFAULT_CHROMIUM, launchChromium } from "@pagepath/profiler";
import { startViewer, type Layout, type RunningViewer } from "@pagepath/viewer";
import { tempDir } from "@pagepath/temp-dirs";

export interface ViewerBrowser {
  browser: Browser;
  page: Page;
  /** Uncaught exceptions and console errors of the page, which fail a test. */
  errors: string[];
  downloads: string;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile, with downloads going to a temporary folder. */
export async function openViewerBrowser(): Promise<ViewerBrowser> {
  const downloads = tempDir("viewer-downloads");
  const chromium = await launchChromium({ executablePath: DEFAULT_CHROMIUM, extraArgs: ["--window-size=1400,900"] }).catch((e: Error) => {
    rmSync(downloads, { recursive: true, force: true });
    throw e;
  });
  const browser = chromium.browser;
  const cleanup = async (): Promise<void> => {
    await chromium.close();
    rmSync(downloads, { recursive: true, force: true });
  };
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(`uncaught: ${(e as Error).message}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
    return { browser, page, errors, downloads, close: cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** The layout the viewer's server gives the graph view (left to right, excluded nodes hidden). */
export function graphLayout(page: Page, file: string): Promise<Layout> {
  return page.evaluate(async (f) => (await fetch(`/api/layout?file=${encodeURIComponent(f)}&rankdir=LR`)).json(), file) as Promise<Layout>;
}

/** Pixels of the graph canvas (the first one `selector` finds) that are not background white. */
export function paintedPixels(page: Page, selector = "canvas.graph-canvas"): Promise<number> {
  return page.$eval(selector, (c) => {
    const canvas = c as HTMLCanvasElement;
    const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i]! < 250 || px[i + 1]! < 250 || px[i + 2]! < 250) n++;
    return n;
  });
}

/** Clicks a node where the canvas draws it: layout position through the view's zoom transform. */
export async function clickGraphNode(page: Page, layout: Layout, id: string): Promise<void> {
  const node = layout.nodes.find((n) => n.id === id);
  if (!node) throw new Error(`node ${id} is not in the layout`);
  const canvas = (await page.$("canvas.graph-canvas"))!;
  const box = (await canvas.boundingBox())!;
  const [tx, ty, k] = (await canvas.evaluate((c) => (c as HTMLElement).dataset.transform ?? "")).split(",").map(Number) as [number, number, number];
  await page.mouse.click(box.x + tx + node.x * k, box.y + ty + node.y * k);
}

/** Where the viewer tests keep their screenshots. */
export const ARTIFACTS = join(process.cwd(), "test-artifacts", "viewer");

/** The viewer serving `dir` on a free port, and a browser to drive it. */
export async function openViewerSession(dir: string): Promise<{ viewer: RunningViewer; chromium: ViewerBrowser }> {
  const viewer = await startViewer({ dir, port: 0 });
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    return { viewer, chromium: await openViewerBrowser() };
  } catch (e) {
    await viewer.close();
    throw e;
  }
}

export async function closeViewerSession(chromium: ViewerBrowser | undefined, viewer: RunningViewer | undefined): Promise<void> {
  await chromium?.close();
  await viewer?.close();
}

/**
 * The path of the first file in `dir` ending in `suffix` (a browser download), once it is complete,
 * waiting up to 10 s. Chromium reserves the final name with an empty file before writing the data to
 * a .crdownload file and renaming it, so an existing name alone does not mean the download is done.
 */
export async function waitForFile(dir: string, suffix: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const names = readdirSync(dir);
    const f = names.find((n) => n.endsWith(suffix));
    if (f && !names.some((n) => n.endsWith(".crdownload")) && statSync(join(dir, f)).size > 0) return join(dir, f);
    await sleep(100);
  }
  throw new Error(`no *${suffix} download appeared in ${dir}`);
}
