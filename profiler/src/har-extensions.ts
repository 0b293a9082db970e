import { archivedInitiator } from "./archive.js";
import type { ArchiveEntry } from "./recording.js";

type P = Record<string, any>;

/**
 * What a HAR entry's non-standard fields say of its request, in Chrome's spelling (`_resourceType`,
 * `_priority` as CDP names it, `_initiator` as CDP's object, `_connectionId`) or WebPageTest's
 * (`_request_type`, `_priority` as Chromium's net stack names it, `_initiator` as the URL of the
 * referencing document or script with `_initiator_type` and `_initiator_line`, `_socket`).
 * Firefox writes none of them: each is null then, and the import infers what it needs.
 */
export function entryExtensions(e: P): { resourceType: string | null; priority: string | null; initiator: ArchiveEntry["initiator"] | null; connectionId: string | null } {
  const type = typeof e._resourceType === "string" ? e._resourceType : typeof e._request_type === "string" ? e._request_type : null;
  return {
    resourceType: type === null ? null : cdpResourceType(type),
    priority: typeof e._priority === "string" ? (NET_PRIORITY[e._priority] ?? e._priority) : null,
    initiator: initiator(e),
    connectionId: e._connectionId !== undefined ? String(e._connectionId) : e._socket !== undefined && e._socket !== null && e._socket !== "" ? String(e._socket) : null,
  };
}

/** Chromium's net priorities (WebPageTest's `_priority`) as CDP names them. */
const NET_PRIORITY: Record<string, string> = { Highest: "VeryHigh", Medium: "Medium", Low: "Low", Lowest: "VeryLow", Idle: "VeryLow", Throttled: "VeryLow" };

function initiator(e: P): ArchiveEntry["initiator"] | null {
  const i = e._initiator;
  if (i && typeof i === "object" && i.type) return archivedInitiator(i);
  if (typeof i !== "string" || !URL.canParse(i)) return null;
  const line = Number(e._initiator_line);
  const type = e._initiator_type === "script" ? "script" : e._initiator_type === "parser" || e._initiator_type === undefined ? "parser" : "other";
  return { type, url: i, lineNumber: Number.isInteger(line) && line >= 0 ? line : null, stackFunctions: [] };
}

/** Resource types as CDP spells them (Chrome writes them lower-case, WebPageTest as CDP). */
const RESOURCE_TYPES = ["Document", "Stylesheet", "Image", "Media", "Font", "Script", "TextTrack", "XHR", "Fetch", "Prefetch", "EventSource", "WebSocket", "Manifest", "SignedExchange", "Ping", "CSPViolationReport", "Preflight", "Other"];

function cdpResourceType(t: string): string {
  return RESOURCE_TYPES.find((x) => x.toLowerCase() === t.toLowerCase()) ?? "Other";
}
