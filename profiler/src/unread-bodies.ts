import type { CDPSession } from "puppeteer-core";
import type { CdpEvent } from "./recording.js";

type Bodies = Map<string, { data: Buffer; base64Encoded: boolean }>;

/**
 * Responses whose body the renderer does not hold. A `<link rel=prefetch>`'s, which the page never
 * read: Network.getResponseBody answers with an empty body although bytes came over the wire (status
 * 200, an empty body, a Content-Length above 0; Chromium types prefetches Other, so the type cannot
 * tell). A dedicated worker's script, which the browser process fetched for the worker:
 * Network.getResponseBody fails with "No resource with given identifier found" (status 200, an
 * error instead of a body).
 */
export function unreadBodies(events: CdpEvent[], bodies: Bodies, errors: Map<string, string>): { requestId: string; url: string; frameId: string | undefined }[] {
  const unread: { requestId: string; url: string; frameId: string | undefined }[] = [];
  for (const { method, params: p } of events as { method: string; params: Record<string, any> }[]) {
    if (method !== "Network.responseReceived" || p.response?.status !== 200) continue;
    const length = Object.entries(p.response.headers ?? {}).find(([k]) => k.toLowerCase() === "content-length")?.[1];
    const emptied = bodies.get(p.requestId)?.data.length === 0 && Number(length) > 0;
    if (!emptied && !(errors.has(p.requestId) && !bodies.has(p.requestId))) continue;
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
  for (const u of unreadBodies(events, bodies, errors)) {
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
      errors.delete(u.requestId);
    } catch (e) {
      const before = errors.get(u.requestId);
      errors.set(u.requestId, `${before ? `${before}; ` : "the page never read this response; "}reading it again failed: ${(e as Error).message.split("\n")[0]}`);
    }
  }
}
