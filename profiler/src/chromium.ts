import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { atProcessEnd } from "@pagepath/temp-dirs";

export const DEFAULT_CHROMIUM = process.env.PAGEPATH_CHROMIUM ?? "/usr/bin/chromium";

/** Marks our profile directories so a test (or a user) can find the browser that belongs to a recording. */
export const PROFILE_DIR_PREFIX = "pagepath-chromium-";

export interface ChromiumOptions {
  executablePath: string;
  hostResolverRules?: string;
  ignoreCertificateSpki?: string[];
  extraArgs?: string[];
}

export interface LaunchedChromium {
  browser: Browser;
  profileDir: string;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with a fresh profile (cold cache, no cookies) for every page.
 * Site isolation is off so that every frame's network and trace events reach one CDP session:
 * PCP's model, like the renderer without isolation, has one main thread per page.
 */
export async function launchChromium(o: ChromiumOptions): Promise<LaunchedChromium> {
  const profileDir = mkdtempSync(join(tmpdir(), PROFILE_DIR_PREFIX));
  // A signal ends the process before anyone calls close(): neither Chromium nor its profile may
  // outlive it. Puppeteer's own signal handlers are off (below): on SIGTERM they close Chromium
  // and let the process go on, which would record the interrupted load as one that failed.
  let launched: Browser | undefined;
  const forget = atProcessEnd(() => {
    const pid = launched?.process()?.pid;
    killChromium(pid);
    awaitGroupGone(pid);
    removeProfile(profileDir);
  });
  const args = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--metrics-recording-only",
    // WebUIOmnibox*: Chromium 15x preloads an omnibox WebUI renderer even headless; it would load
    // hundreds of chrome:// resources into our trace while the page loads.
    "--disable-features=IsolateOrigins,site-per-process,OptimizationHints,MediaRouter,Translate,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    "--disable-site-isolation-trials",
    "--password-store=basic",
    "--use-mock-keychain",
    ...(o.hostResolverRules ? [`--host-resolver-rules=${o.hostResolverRules}`] : []),
    ...(o.ignoreCertificateSpki?.length ? [`--ignore-certificate-errors-spki-list=${o.ignoreCertificateSpki.join(",")}`] : []),
    ...(o.extraArgs ?? []),
  ];
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: o.executablePath,
      headless: true,
      pipe: true,
      userDataDir: profileDir,
      args,
      ignoreDefaultArgs: ["--enable-automation"],
      protocolTimeout: 60_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    launched = browser;
  } catch (e) {
    removeProfile(profileDir);
    forget();
    throw new Error(`cannot start Chromium at ${o.executablePath}: ${(e as Error).message.split("\n")[0]}`);
  }
  return {
    browser,
    profileDir,
    async close() {
      try {
        if (browser.connected) await browser.close();
      } catch {
        browser.process()?.kill("SIGKILL");
      }
      removeProfile(profileDir);
      forget();
    },
  };
}

/**
 * Chromium and every process it started (renderers, network service, GPU), which hold files in
 * its profile: puppeteer starts it as the leader of a process group of its own.
 */
function killChromium(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
      return;
    } catch {
      // not a group leader, or gone already
    }
  }
}

/**
 * A killed process still finishes the system call it was in (a write, a mkdir of a cache folder)
 * before it goes; on a loaded machine that can outlast a removal's retries. Synchronous, as a
 * signal's cleanup must be; bounded, as a process stuck in the kernel must not hold the exit.
 */
function awaitGroupGone(pid: number | undefined): void {
  if (pid === undefined) return;
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < 5_000 && groupRunning(pid); waited += 20) Atomics.wait(tick, 0, 0, 20);
}

/**
 * Whether a process of group `pgid` has not yet exited. Not kill(-pgid, 0): Chromium's own process
 * is our child, a zombie that only this process's event loop reaps, and that counts as alive there.
 */
function groupRunning(pgid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/**
 * After a crash, Chromium's helper processes may still be writing into the profile for a moment:
 * retry, and never let a leftover temporary directory cost the recording.
 */
function removeProfile(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  } catch (e) {
    process.stderr.write(`pagepath: could not remove the browser profile ${dir}: ${(e as Error).message}\n`);
  }
}
