import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { CDPSession } from "puppeteer-core";
import { buildArchive } from "./archive.js";
import { readUnreadBodies } from "./unread-bodies.js";
import { applyConditions, computedFont, endTracing, evaluate, fetchBody, navigationLoadTime, sleep, withTimeout } from "./cdp-calls.js";
import { launchChromium, type ChromiumOptions } from "./chromium.js";
import { extractLifecycle, toFrameTree } from "./lifecycle.js";
import { lcpTextNode } from "./lcp.js";
import { captureLayout, type PageLayout } from "./layout.js";
import { mergePasses } from "./merge-passes.js";
import {
  RECORDING_SCHEMA_VERSION,
  type CdpEvent,
  type Conditions,
  type LcpFont,
  type Recording,
  type RecordingManifest,
  type StopPolicy,
} from "./recording.js";
import { CREDENTIAL_HEADERS, redactEventParams } from "./redact.js";
import { StopCondition } from "./stop-condition.js";
import { TRACE_CATEGORIES } from "./trace-categories.js";
import { restoreTextBytes } from "./text-body.js";
import { TOOL_VERSION } from "./version.js";

export interface ProfileOptions extends ChromiumOptions {
  stop: StopPolicy;
  conditions: Conditions;
  /** Redact cookies and credential headers (the default). */
  redact: boolean;
  /** What to record (default: everything). See Instrumentation. */
  instrument?: Instrumentation;
  /**
   * 2: load the page twice, once with the trace alone for its timing and once with the Network
   * domain for its content, and merge the two (merge-passes.ts). The Network domain's protocol
   * messages cost the page's renderer time (`pagepath bench profiler`), so one pass records a
   * slower load than the page's own. Default 1. With 2 both loads are traced, and have async
   * stacks as `instrument` says.
   */
  passes?: 1 | 2;
}

/**
 * The parts of the recording, each with its cost to the page: the network log with bodies, async
 * stack traces for initiators (the debugger), and Chrome's trace. With none of them the page loads
 * with only the Page domain on (to see the load event): the reference for measuring overhead.
 */
export interface Instrumentation {
  network: boolean;
  asyncStacks: boolean;
  trace: boolean;
}

export const FULL_INSTRUMENTATION: Instrumentation = { network: true, asyncStacks: true, trace: true };
export const NO_INSTRUMENTATION: Instrumentation = { network: false, asyncStacks: false, trace: false };
/** The timing pass of a two-pass recording: everything but the Network domain. */
export const TIMING_PASS: Instrumentation = { network: false, asyncStacks: true, trace: true };

export interface ProfileResult {
  recording: Recording;
  /** The page's own navigation timing (loadEventStart - startTime), ms; null if load never came. */
  pageLoadMs: number | null;
}

export const DEFAULT_STOP: StopPolicy = { quietMs: 3000, capMs: 60_000 };

const CAPTURED_DOMAINS = ["Network.", "Page."];
const WORKERS = new Set(["worker", "shared_worker", "service_worker"]);
/** Network.enable buffers, large enough to keep every body until the load is over. */
const NETWORK_BUFFERS = { maxTotalBufferSize: 512 * 1024 * 1024, maxResourceBufferSize: 128 * 1024 * 1024 };
const BODY_WAIT_MS = 10_000;

/**
 * A worker the page started, paused until we have its network log on: record it, then let it run.
 * Other attached targets (there are none with site isolation off) are only let run.
 */
async function watchWorker(page: CDPSession, ev: { sessionId: string; targetInfo: { type: string } }, capture: (s: CDPSession) => void): Promise<void> {
  const child = page.connection()?.session(ev.sessionId);
  if (!child) return;
  try {
    if (WORKERS.has(ev.targetInfo.type)) {
      capture(child);
      await child.send("Network.enable", NETWORK_BUFFERS);
    }
  } catch {
    /* the worker went away before it could be watched */
  } finally {
    await child.send("Runtime.runIfWaitingForDebugger").catch(() => undefined);
  }
}

/**
 * Loads one URL in a fresh Chromium and records it. Never throws for a failing page: a page that
 * cannot be loaded yields a recording marked incomplete, with the reason and whatever was captured.
 */
export async function recordPage(url: string, o: ProfileOptions): Promise<ProfileResult> {
  if (o.passes === 2) {
    const asyncStacks = (o.instrument ?? FULL_INSTRUMENTATION).asyncStacks;
    const timing = await recordPass(url, { ...o, instrument: { ...TIMING_PASS, asyncStacks } });
    const content = await recordPass(url, { ...o, instrument: { ...FULL_INSTRUMENTATION, asyncStacks } });
    // The timing pass's layout: both passes load the same page, and its trace is the one kept.
    const merged = mergePasses(content.recording, timing.recording);
    const layout = timing.recording.layout ?? null;
    return { recording: { ...merged, layout, manifest: { ...merged.manifest, files: { ...merged.manifest.files, layout: layout !== null } } }, pageLoadMs: timing.pageLoadMs };
  }
  return recordPass(url, o);
}

async function recordPass(url: string, o: ProfileOptions): Promise<ProfileResult> {
  const parts = o.instrument ?? FULL_INSTRUMENTATION;
  const instrument = parts.network;
  const startedAt = new Date();
  const t0 = performance.now();
  // Node's hrtime and Chrome's TimeTicks both read CLOCK_MONOTONIC.
  const wallMinusMonotonicS = Date.now() / 1000 - Number(process.hrtime.bigint()) / 1e9;
  const now = () => performance.now() - t0;
  const events: CdpEvent[] = [];
  const bodies = new Map<string, { data: Buffer; base64Encoded: boolean }>();
  const bodyErrors = new Map<string, string>();
  // Bodies are fetched once the page is done, not as each response finishes: CDP round trips during
  // the load would compete with the page for the renderer and slow it down. Chromium keeps them in
  // the Network domain's buffer (sized in Network.enable) until then.
  // HTML documents are the exception: few, and what the graph builder needs even if the browser dies.
  const finished: string[] = [];
  const documents = new Set<string>();
  const early: Promise<void>[] = [];
  let trace: unknown[] | null = null;
  let lcpFont: LcpFont | null | undefined;
  let layout: PageLayout | null = null;
  let failure: string | null = null;
  let stoppedBy: RecordingManifest["stoppedBy"] = "quiet";
  let frameTree: unknown;
  let mainFrameId: string | null = null;
  let finalUrl: string | null = null;
  let pageLoadMs: number | null = null;
  let browserInfo = { product: "", userAgent: "", executablePath: o.executablePath };
  let browserGone = false;

  let chromium;
  try {
    chromium = await launchChromium(o);
  } catch (e) {
    failure = (e as Error).message;
    stoppedBy = "error";
  }

  if (chromium) {
    const { browser } = chromium;
    browser.on("disconnected", () => (browserGone = true));
    try {
      browserInfo = { product: await browser.version(), userAgent: await browser.userAgent(), executablePath: o.executablePath };
      const target = browser.targets().find((t) => t.type() === "page") ?? (await browser.newPage()).target();
      const session = await target.createCDPSession();
      const stop = new StopCondition(o.stop, now());
      let tracing = false;

      // Every Network.* and Page.* event, whatever this puppeteer's protocol copy knows of, from
      // the page and from its workers (which fetch on their own sessions).
      const owner = new Map<string, CDPSession>();
      const capture = (s: CDPSession) => {
        const emit = s.emit.bind(s) as (type: unknown, event: unknown) => boolean;
        (s as unknown as { emit: typeof emit }).emit = (type, event) => {
          if (typeof type === "string" && CAPTURED_DOMAINS.some((d) => type.startsWith(d))) {
            onEvent(type, (event ?? {}) as Record<string, any>, s);
          }
          return emit(type, event);
        };
      };
      const onEvent = (method: string, p: Record<string, any>, from: CDPSession) => {
        // Page events are cheap (a handful a load) and date the lifecycle of a pass without the Network domain.
        if (instrument || (parts.trace && method.startsWith("Page."))) events.push({ method, params: p });
        if (method === "Network.requestWillBeSent") {
          owner.set(p.requestId, from);
          // blob: and data: loads are not network traffic, and Chromium does not always say when they end
          if (/^(https?|wss?):/.test(p.request?.url ?? "")) stop.requestStarted(p.requestId, now());
          if (p.type === "Document") documents.add(p.requestId);
        }
        else if (method === "Network.loadingFailed") stop.requestEnded(p.requestId, now());
        else if (method === "Network.loadingFinished") {
          stop.requestEnded(p.requestId, now());
          if (instrument && documents.has(p.requestId)) early.push(fetchBody(from, p.requestId, bodies, bodyErrors));
          else if (instrument) finished.push(p.requestId);
        } else if (method === "Page.loadEventFired") stop.loadFired(now());
        // alert() and friends block the renderer until answered; a visitor would click OK. The
        // event stays in the recording, so the graph can show the wait.
        else if (method === "Page.javascriptDialogOpening") {
          session.send("Page.handleJavaScriptDialog", { accept: true }).catch(() => undefined);
        }
      };
      capture(session);
      if (instrument) {
        session.on("Target.attachedToTarget", (ev: any) => void watchWorker(session, ev, capture));
        await session.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
      }

      mainFrameId = ((await session.send("Page.getFrameTree")) as any).frameTree.frame.id;
      await session.send("Page.enable");
      await applyConditions(session, o.conditions);
      if (instrument || parts.trace) await session.send("Page.setLifecycleEventsEnabled", { enabled: true });
      if (instrument) await session.send("Network.enable", { ...NETWORK_BUFFERS, maxPostDataSize: 1024 * 1024 });
      if (parts.asyncStacks) {
        // Async stacks (setTimeout, promises, event listeners) make initiators reach their true cause.
        await session.send("Debugger.enable", { maxScriptsCacheSize: 0 });
        await session.send("Debugger.setAsyncCallStackDepth", { maxDepth: 32 });
      }
      if (parts.trace) {
        await session.send("Tracing.start", {
          transferMode: "ReturnAsStream",
          traceConfig: { recordMode: "recordAsMuchAsPossible", includedCategories: TRACE_CATEGORIES },
        });
        tracing = true;
      }

      let navError: string | null = null;
      session.send("Page.navigate", { url }).then(
        (r: any) => {
          if (r.errorText) navError = `navigation to ${url} failed: ${r.errorText}`;
        },
        (e: Error) => {
          if (!browserGone) navError = `navigation to ${url} failed: ${e.message}`;
        },
      );

      for (;;) {
        if (browserGone) {
          failure = "Chromium exited or was killed during the load";
          stoppedBy = "browser-gone";
          break;
        }
        if (navError) {
          failure = navError;
          stoppedBy = "error";
          break;
        }
        const d = stop.decide(now());
        if (d.stop) {
          stoppedBy = d.by;
          if (!stop.loaded) failure = `the load event did not fire within ${o.stop.capMs} ms (${stop.pending} requests still pending)`;
          break;
        }
        await sleep(Math.max(1, Math.min(25, d.wakeAt - now())));
      }

      if (!browserGone) {
        pageLoadMs = await navigationLoadTime(session);
        finalUrl = await evaluate<string>(session, "location.href");
        frameTree = ((await session.send("Page.getFrameTree").catch(() => null)) as any)?.frameTree;
        const fetching = Promise.allSettled([...early, ...finished.map((id) => fetchBody(owner.get(id) ?? session, id, bodies, bodyErrors))]);
        await withTimeout(fetching, BODY_WAIT_MS).catch(() => undefined);
        if (instrument) await withTimeout(readUnreadBodies(session, events, bodies, bodyErrors, mainFrameId ?? undefined), BODY_WAIT_MS).catch(() => undefined);
        if (tracing) trace = await endTracing(session);
        const textNode = lcpTextNode(trace, mainFrameId);
        if (textNode !== null) lcpFont = await computedFont(session, textNode);
        if (tracing) layout = await captureLayout(session);
      }
    } catch (e) {
      failure ??= browserGone ? "Chromium exited or was killed during the load" : `profiling failed: ${(e as Error).message}`;
      if (browserGone) stoppedBy = "browser-gone";
      else stoppedBy = "error";
    } finally {
      await chromium.close();
    }
  }

  return { recording: assemble(), pageLoadMs };

  function assemble(): Recording {
    if (o.redact) {
      for (const e of events) redactEventParams(e.params);
      if (trace) for (const t of trace) redactEventParams(t);
    }
    const archive = buildArchive(events);
    const store = new Map<string, Buffer>();
    for (const entry of archive) {
      const b = bodies.get(entry.requestId);
      if (entry.redirectedTo || entry.failure) continue;
      if (b) {
        const data = b.base64Encoded ? b.data : restoreTextBytes(b.data, entry.response?.headers ?? {});
        const sha256 = createHash("sha256").update(data).digest("hex");
        store.set(sha256, data);
        entry.body = { sha256, size: data.length, base64Encoded: b.base64Encoded };
        entry.sizes.bodySize = data.length;
      } else {
        entry.bodyMissing = bodyErrors.get(entry.requestId) ?? (entry.times.end === null ? "response never finished" : "body not retrieved");
      }
    }
    const lifecycle = extractLifecycle(events, trace, mainFrameId, lcpFont);
    const manifest: RecordingManifest = {
      schemaVersion: RECORDING_SCHEMA_VERSION,
      kind: "pagepath-recording",
      tool: { name: "pagepath", version: TOOL_VERSION },
      url,
      finalUrl,
      status: failure ? "incomplete" : "complete",
      reason: failure,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(now()),
      browser: browserInfo,
      conditions: o.conditions,
      stopPolicy: o.stop,
      stoppedBy,
      redaction: { enabled: o.redact, headers: o.redact ? CREDENTIAL_HEADERS : [] },
      traceCategories: TRACE_CATEGORIES,
      files: { events: true, trace: trace !== null, archive: true, layout: layout !== null },
      lifecycle,
      frameTree: toFrameTree(frameTree as any),
      clock: { wallMinusMonotonicS: Math.round(wallMinusMonotonicS * 1e6) / 1e6 },
      counts: {
        events: events.length,
        traceEvents: trace?.length ?? 0,
        requests: archive.length,
        bodies: store.size,
        failedRequests: archive.filter((e) => e.failure).length,
      },
    };
    return { manifest, events, trace, archive, bodies: store, layout };
  }
}
