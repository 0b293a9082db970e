import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { DEFAULT_CHROMIUM } from "@pagepath/profiler";

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
  const profile = mkdtempSync(join(tmpdir(), "pagepath-viewer-chromium-"));
  const downloads = mkdtempSync(join(tmpdir(), "pagepath-viewer-downloads-"));
  const browser = await puppeteer.launch({
    executablePath: DEFAULT_CHROMIUM,
    headless: true,
    pipe: true,
    userDataDir: profile,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check", "--window-size=1400,900"],
  });
  const cleanup = async (): Promise<void> => {
    await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
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
