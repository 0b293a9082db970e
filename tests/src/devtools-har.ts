import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium, type ProfileOptions } from "@pagepath/profiler";

/**
 * A HAR as Chromium itself exports one: its own DevTools front end (the one bundled in the browser,
 * `devtools://devtools/bundled/`) attached to a tab over the remote-debugging socket on loopback,
 * the tab loads `url`, and the Network panel's "Export HAR (with sensitive data)" code
 * (`HAR.Writer.Writer.write` over `NetworkLog`'s requests) writes the file. So the importer is
 * tested on DevTools' output, not on pagepath's own `har` export of the same page.
 */
export async function exportHarWithDevTools(url: string, o: ProfileOptions, settleMs = 1500): Promise<unknown> {
  const chromium = await launchChromium({
    executablePath: o.executablePath,
    // The page's rules send every other name nowhere, and MAP * catches address literals too: the
    // front end's socket to 127.0.0.1 is left out of them.
    hostResolverRules: o.hostResolverRules ? `${o.hostResolverRules}, EXCLUDE 127.0.0.1` : undefined,
    ignoreCertificateSpki: o.ignoreCertificateSpki,
    // Port 0: Chromium picks a free one and names it in DevToolsActivePort. The front end is served
    // from devtools:// and Chromium refuses its WebSocket unless that origin is allowed.
    extraArgs: ["--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=devtools://devtools"],
  });
  try {
    const port = await activePort(chromium.profileDir);
    const page = await chromium.browser.newPage();
    const cdp = await page.createCDPSession();
    const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } };
    // The front end's tab is opened and driven over a bare CDP session, not as a puppeteer page:
    // puppeteer would follow every module the front end loads in this process, beside the page's
    // load, and the waits in the HAR would grow with that work.
    const browserCdp = await chromium.browser.target().createCDPSession();
    const { targetId } = (await browserCdp.send("Target.createTarget", { url: `devtools://devtools/bundled/devtools_app.html?panel=network&ws=127.0.0.1:${port}/devtools/page/${targetInfo.targetId}` })) as { targetId: string };
    const { sessionId } = (await browserCdp.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const devtools = browserCdp.connection()!.session(sessionId)!;
    const evaluate = async (expression: string): Promise<unknown> => {
      const r = (await devtools.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true })) as { result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string } } };
      if (r.exceptionDetails) throw new Error(`DevTools front end: ${r.exceptionDetails.exception?.description ?? "an exception"}`);
      return r.result.value;
    };
    const attached = () => evaluate(`import("./core/sdk/sdk.js").then((m) => m.TargetManager.TargetManager.instance().targets().length > 0).catch(() => false)`);
    for (let i = 0; !(await attached()); i++) {
      if (i === 200) throw new Error(`DevTools did not attach to the tab over 127.0.0.1:${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The front end goes on building its panels for a while after it attaches: the load waits, so as
    // not to share the two cores with that work.
    await new Promise((r) => setTimeout(r, settleMs));
    // The front end's tab was opened last and is the one in view; a tab out of view is not rendered,
    // so its style sheets' images and fonts would be asked for late, as in a background tab.
    await page.bringToFront();
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await new Promise((r) => setTimeout(r, settleMs));
    const har = (await evaluate(`(async () => {
      const logs = await import("./models/logs/logs.js");
      const harModule = await import("./models/har/har.js");
      const parts = [];
      const stream = { write: async (s) => void parts.push(s), close: async () => {} };
      const progress = { setTitle() {}, setTotalWork() {}, setWorked() {}, incrementWorked() {}, done() {}, isCanceled: () => false, setCanceled() {} };
      await harModule.Writer.Writer.write(stream, logs.NetworkLog.NetworkLog.instance().requests(), { sanitize: false }, progress);
      return parts.join("");
    })()`)) as string;
    return JSON.parse(har);
  } finally {
    await chromium.close();
  }
}

async function activePort(profileDir: string): Promise<number> {
  const file = join(profileDir, "DevToolsActivePort");
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      const port = Number(readFileSync(file, "utf8").split("\n")[0]);
      if (port > 0) return port;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Chromium named no remote-debugging port in ${file}`);
}
