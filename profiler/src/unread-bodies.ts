import type { CDPSession } from "puppeteer-core";
import type { CdpEvent } from "./recording.js";

type Bodies = Map<string, { data: Buffer; base64Encoded: boolean }>;

/**
 * Responses the page fetched but never read, such as a `<link rel=prefetch>`'s: Chromium keeps no
 * body for them, and Network.getResponseBody answers with an empty one although bytes came over
 * the wire. The ids of such requests: status 200, a body that came back empty, and a Content-Length
 * above 0 (Chromium gives prefetches the resource type Other, so the type cannot tell).
 */
export function unreadBodies(events: CdpEvent[], bodies: Bodies): { requestId: string; url: string; frameId: string | undefined }[] {
  const unread: { requestId: string; url: string; frameId: string | undefined }[] = [];
  for (const { method, params: p } of events as { method: string; params: Record<string, any> }[]) {
    if (method !== "Network.responseReceived" || p.response?.status !== 200) continue;
    if (bodies.get(p.requestId)?.data.length !== 0) continue;
    const length = Object.entries(p.response.headers ?? {}).find(([k]) => k.toLowerCase() === "content-length")?.[1];
    if (!(Number(length) > 0)) continue;
    unread.push({ requestId: p.requestId, url: p.response.url, frameId: p.frameId });
  }
  return unread;
}

/**
 * Reads the body of each unread response again through the browser's own network stack
 * (Network.loadNetworkResource, which the prefetch has just filled the HTTP cache for), so that a
 * replay serves what the server sent rather than an empty 200. A body that cannot be read stays
 * empty and the reason goes to `errors`.
 */
export async function readUnreadBodies(session: CDPSession, events: CdpEvent[], bodies: Bodies, errors: Map<string, string>, mainFrameId: string | undefined): Promise<void> {
  for (const u of unreadBodies(events, bodies)) {
    try {
      const { resource } = (await session.send("Network.loadNetworkResource", {
        frameId: u.frameId ?? mainFrameId,
        url: u.url,
        options: { disableCache: false, includeCredentials: false },
      })) as { resource: { success: boolean; netErrorName?: string; httpStatusCode?: number; stream?: string } };
      if (!resource.success || !resource.stream) throw new Error(`${resource.netErrorName ?? `status ${resource.httpStatusCode}`}`);
      const parts: Buffer[] = [];
      for (;;) {
        const chunk = (await session.send("IO.read", { handle: resource.stream })) as { data: string; base64Encoded?: boolean; eof: boolean };
        parts.push(Buffer.from(chunk.data, chunk.base64Encoded ? "base64" : "utf8"));
        if (chunk.eof) break;
      }
      await session.send("IO.close", { handle: resource.stream }).catch(() => undefined);
      bodies.set(u.requestId, { data: Buffer.concat(parts), base64Encoded: true });
    } catch (e) {
      errors.set(u.requestId, `the page never read this response and reading it again failed: ${(e as Error).message.split("\n")[0]}`);
    }
  }
}
