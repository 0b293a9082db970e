import { join } from "node:path";
import { fixtureDir, serveSite, type RunningSite } from "@pagepath/corpus";
import { profileBatch, recordingName } from "@pagepath/profiler";
import { optionsFor } from "./fixture-profile.js";

/**
 * The fidelity fixture pages (corpus/fixtures/fidelity), one per browser behaviour the emulated
 * browser models (issue 21), each with the URL it is entered by.
 */
export const FIDELITY_PAGES = {
  moduleChain: "https://www.fidelity.test/module-chain.html",
  dynamicImport: "https://www.fidelity.test/dynamic-import.html",
  fontCss: "https://www.fidelity.test/font-css.html",
  scriptInserted: "https://www.fidelity.test/script-inserted.html",
  xhrBeforeLoad: "https://www.fidelity.test/xhr-before-load.html",
  fragment: "https://www.fidelity.test/fragment.html#details",
  largeHead: "https://www.fidelity.test/large-head.html",
  manyImages: "https://www.fidelity.test/many-images.html",
  prefetch: "https://www.fidelity.test/prefetch.html",
  syncXhr: "https://www.fidelity.test/sync-xhr.html",
  cssImport: "https://www.fidelity.test/css-import.html",
  lazyImages: "https://www.fidelity.test/lazy-images.html",
  worker: "https://www.fidelity.test/worker.html",
  modulePreload: "https://www.fidelity.test/module-preload.html",
  fontDisplay: "https://www.fidelity.test/font-display.html",
  fontAuto: "https://www.fidelity.test/font-auto.html",
  fontBlock: "https://www.fidelity.test/font-block.html",
  paintBeforeScript: "https://www.fidelity.test/paint-before-script.html",
  preconnect: "https://www.fidelity.test/preconnect.html",
  frameStyle: "https://www.fidelity.test/frame-style.html",
  importBeforeScript: "https://www.fidelity.test/import-before-script.html",
  timerImage: "https://www.fidelity.test/timer-image.html",
  timerAfterParse: "https://www.fidelity.test/timer-after-parse.html",
  timerBeforeLoad: "https://www.fidelity.test/timer-before-load.html",
  readyReveal: "https://www.fidelity.test/ready-reveal.html",
} as const;

export type FidelityPage = keyof typeof FIDELITY_PAGES;

export const fidelitySiteDir = () => fixtureDir("fidelity");

/** Profiles the given fidelity pages into outDir one at a time; the recording directory of each. */
export async function profileFidelityPages(site: RunningSite, outDir: string, pages: FidelityPage[]): Promise<Map<FidelityPage, string>> {
  const urls = pages.map((p) => FIDELITY_PAGES[p]);
  const results = await profileBatch(urls, outDir, { ...optionsFor(site), concurrency: 1, resume: false });
  const failed = results.filter((r) => r.status !== "complete");
  if (failed.length) throw new Error(`profiling fidelity pages failed: ${failed.map((f) => `${f.url}: ${f.reason}`).join("; ")}`);
  return new Map(pages.map((p) => [p, join(outDir, recordingName(FIDELITY_PAGES[p]))]));
}

/** profileFidelityPages with the fidelity site served for just that long. */
export async function recordFidelityPages(outDir: string, pages: FidelityPage[]): Promise<Map<FidelityPage, string>> {
  const site = await serveSite(fidelitySiteDir());
  try {
    return await profileFidelityPages(site, outDir, pages);
  } finally {
    await site.close();
  }
}
