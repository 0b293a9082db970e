import { basename, dirname } from "node:path";
import { quantile } from "@pagepath/corpus";
import { DEFAULT_CHROMIUM, launchChromium, type LaunchedChromium } from "@pagepath/profiler";
import { stopBatchSimulators } from "@pagepath/runner";
import { startViewer } from "@pagepath/viewer";
import { medianPage } from "./simulate-speed.js";

export interface WhatIfBenchResult {
  /** The realistic corpus page of median size, as the viewer names it. */
  site: string;
  rounds: number;
  /** Click on Simulate to the timeline drawn anew with the simulated run, on the page's clock. */
  clickToDrawnMs: { median: number; p90: number };
  /** The reference, measured in the same page: the what-if request alone (simulation and transfer). */
  requestMs: { median: number; p90: number };
  /** clickToDrawn / request, medians: what the page adds to the simulation. */
  ratio: number;
}

/** Issue 22's floor for moving a setting and seeing the page again. */
export const WHAT_IF_FLOOR_MS = 200;

const VIEWPORT = { width: 1400, height: 900 };

/**
 * The viewer's what-if row on the median realistic corpus page's timeline, in headless Chromium:
 * `rounds` settings, each new (the rate moves a step each round, one path and two in turn, so no
 * answer is reused), from the click on Simulate to the new drawing; then as many what-if requests
 * alone from the same page, with settings not asked for before.
 */
export async function benchWhatIf(graphs: string, rounds: number, log: (l: string) => void): Promise<WhatIfBenchResult> {
  const graphFile = medianPage(graphs);
  const site = `${basename(graphs)}/${basename(graphFile)}`;
  // The viewer serves the corpus folder, so that a graph finds its recording as a replay does.
  const viewer = await startViewer({ dir: dirname(graphs), port: 0 });
  let chromium: LaunchedChromium | undefined;
  try {
    chromium = await launchChromium({ executablePath: DEFAULT_CHROMIUM, extraArgs: [`--window-size=${VIEWPORT.width},${VIEWPORT.height}`] });
    const page = await chromium.browser.newPage();
    await page.setViewport(VIEWPORT);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push((e as Error).message));
    await page.goto(`${viewer.url}#view=timeline&site=${encodeURIComponent(site)}`, { waitUntil: "load" });
    await page.waitForSelector(".timeline-scroll svg[data-drawn]", { timeout: 60_000 });
    const clicks: number[] = [];
    // One round more than measured: the first starts the simulator and reads the page.
    for (let i = 0; i <= rounds; i++) {
      const [rate, rtt, paths] = [String(2 + i), String(20 + 10 * (i % 5)), String(1 + (i % 2))];
      await page.$eval("#what-if input[name=rate]", (e, v) => ((e as HTMLInputElement).value = v), rate);
      await page.$eval("#what-if input[name=rtt]", (e, v) => ((e as HTMLInputElement).value = v), rtt);
      await page.select("#what-if select[name=paths]", paths);
      const ms = await page.evaluate(() => {
        document.querySelector(".timeline-scroll svg[data-drawn]")!.setAttribute("data-old", "1");
        const t = performance.now();
        return new Promise<number>((done, fail) => {
          const look = () => {
            if (document.querySelector(".timeline-scroll svg[data-drawn]:not([data-old])")) done(performance.now() - t);
            else if (performance.now() - t > 60_000) fail(new Error("the timeline was not drawn again within 60 s"));
            else requestAnimationFrame(look);
          };
          (document.querySelector("#what-if button[type=submit]") as HTMLButtonElement).click();
          requestAnimationFrame(look);
        });
      });
      if (i > 0) clicks.push(ms);
      log(`  what-if ${i}/${rounds}: ${rate} Mbit/s, ${rtt} ms, ${paths} path(s): drawn in ${ms.toFixed(0)} ms${i === 0 ? " (the first, not counted)" : ""}`);
    }
    const requests: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const query = `rate=${100 + i}&rtt=${25 + 10 * (i % 5)}&loss=0&paths=${1 + (i % 2)}`;
      requests.push(
        await page.evaluate(async (f, q) => {
          const t = performance.now();
          const res = await fetch(`/api/what-if?file=${encodeURIComponent(f)}&${q}`);
          if (!res.ok) throw new Error(`what-if ${q}: HTTP ${res.status} ${await res.text()}`);
          await res.json();
          return performance.now() - t;
        }, site, query),
      );
    }
    if (errors.length) throw new Error(`the viewer reported errors: ${errors.join("; ")}`);
    const summary = (xs: number[]) => ({ median: quantile(xs, 0.5), p90: quantile(xs, 0.9) });
    const clickToDrawnMs = summary(clicks);
    const requestMs = summary(requests);
    return { site, rounds, clickToDrawnMs, requestMs, ratio: clickToDrawnMs.median / requestMs.median };
  } finally {
    await chromium?.close();
    await viewer.close();
    stopBatchSimulators();
  }
}
