import type { CDPSession } from "puppeteer-core";
import type { Conditions, LcpFont } from "./recording.js";

/** The CDP calls the profiler makes beyond listening: bodies, conditions, the trace stream, evaluation. */

export async function fetchBody(
  session: CDPSession,
  requestId: string,
  bodies: Map<string, { data: Buffer; base64Encoded: boolean }>,
  errors: Map<string, string>,
): Promise<void> {
  try {
    const r = (await session.send("Network.getResponseBody", { requestId })) as { body: string; base64Encoded: boolean };
    bodies.set(requestId, { data: Buffer.from(r.body, r.base64Encoded ? "base64" : "utf8"), base64Encoded: r.base64Encoded });
  } catch (e) {
    errors.set(requestId, `Network.getResponseBody failed: ${(e as Error).message.split("\n")[0]}`);
  }
}

export async function applyConditions(session: CDPSession, c: Conditions): Promise<void> {
  if (c.cpuThrottlingRate > 1) await session.send("Emulation.setCPUThrottlingRate", { rate: c.cpuThrottlingRate });
  if (c.network) {
    await session.send("Network.enable");
    await session.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: c.network.latencyMs,
      downloadThroughput: (c.network.downloadKbps * 1000) / 8,
      uploadThroughput: (c.network.uploadKbps * 1000) / 8,
    });
  }
  if (c.device) {
    await session.send("Emulation.setDeviceMetricsOverride", {
      width: c.device.width,
      height: c.device.height,
      deviceScaleFactor: c.device.deviceScaleFactor,
      mobile: c.device.mobile,
    });
    if (c.device.userAgent) await session.send("Emulation.setUserAgentOverride", { userAgent: c.device.userAgent });
    if (c.device.mobile) await session.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
  }
}

export async function endTracing(session: CDPSession): Promise<unknown[] | null> {
  const complete = new Promise<{ stream?: string }>((ok) => session.once("Tracing.tracingComplete", ok as any));
  await session.send("Tracing.end");
  const { stream } = await withTimeout(complete, 30_000);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for (;;) {
    const r = (await session.send("IO.read", { handle: stream, size: 4 * 1024 * 1024 })) as { data: string; eof: boolean; base64Encoded?: boolean };
    chunks.push(Buffer.from(r.data, r.base64Encoded ? "base64" : "utf8"));
    if (r.eof) break;
  }
  await session.send("IO.close", { handle: stream });
  const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { traceEvents?: unknown[] } | unknown[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
}

export async function navigationLoadTime(session: CDPSession): Promise<number | null> {
  const v = await evaluate<number>(
    session,
    "(() => { const n = performance.getEntriesByType('navigation')[0]; return n && n.loadEventStart > 0 ? n.loadEventStart - n.startTime : -1; })()",
  );
  return typeof v === "number" && v >= 0 ? v : null;
}

export async function evaluate<T>(session: CDPSession, expression: string): Promise<T | null> {
  try {
    const r = (await withTimeout(session.send("Runtime.evaluate", { expression, returnByValue: true }), 5000)) as any;
    return (r?.result?.value ?? null) as T | null;
  } catch {
    return null;
  }
}

/**
 * The computed font of a DOM node (backend id, as the trace names it): which web font a text paint
 * needed is decided by CSS font matching on these, and only the live page knows them.
 */
export async function computedFont(session: CDPSession, backendNodeId: number): Promise<LcpFont | null> {
  try {
    const { object } = (await withTimeout(session.send("DOM.resolveNode", { backendNodeId }), 5000)) as any;
    if (!object?.objectId) return null;
    const r = (await withTimeout(
      session.send("Runtime.callFunctionOn", {
        objectId: object.objectId,
        returnByValue: true,
        functionDeclaration:
          "function () { const e = this.nodeType === 1 ? this : this.parentElement; const s = getComputedStyle(e); return { family: s.fontFamily, weight: s.fontWeight, style: s.fontStyle }; }",
      }),
      5000,
    )) as any;
    const v = r?.result?.value;
    return v && typeof v.family === "string" ? { family: v.family, weight: String(v.weight), style: String(v.style) } : null;
  } catch {
    return null;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((ok) => setTimeout(ok, ms));
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, fail) => (timer = setTimeout(() => fail(new Error(`timed out after ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
