import { gunzipSync } from "node:zlib";
import type { Imported } from "./har-import.js";
import { parseHttpMessage, requestLine, statusLine } from "./http-message.js";
import { ImportError } from "./imported-recording.js";
import { importUntimed } from "./untimed-import.js";
import { untimedResponse, type WithProblem } from "./untimed-response.js";

type P = Record<string, any>;

/**
 * A Web Page Replay archive (`.wprgo`: its Go `Archive` as gzip-compressed JSON) as a recording.
 * `Requests` holds, by host and URL, each request and response as raw HTTP/1.1 bytes (base64);
 * `NegotiatedProtocol` the protocol per host; `DeterministicTimeSeedMs` when it was recorded. Like
 * Mahimahi it keeps no timing and does not name the page (untimed-order.ts).
 */
export function importWpr(file: Buffer, source: string, options: { page?: string | null; keepCredentials?: boolean; fileTimeMs?: number } = {}): Imported {
  let archive: P;
  try {
    const json = file[0] === 0x1f && file[1] === 0x8b ? gunzipSync(file) : file;
    archive = JSON.parse(json.toString("utf8")) as P;
  } catch (e) {
    throw new ImportError(source, "(file)", `not a Web Page Replay archive (gzip-compressed JSON): ${(e as Error).message}`);
  }
  const requests = archive?.Requests;
  if (!requests || typeof requests !== "object") throw new ImportError(source, "/Requests", "missing: a Web Page Replay archive keeps its requests there, by host and URL");
  const protocols: P = archive.NegotiatedProtocol ?? {};
  const warnings: string[] = [];
  const responses: WithProblem[] = [];
  for (const [host, byUrl] of Object.entries(requests as P)) {
    for (const [url, list] of Object.entries(byUrl as P)) {
      (Array.isArray(list) ? list : []).forEach((r: P, i: number) => {
        const at = `/Requests/${pointerPart(host)}/${pointerPart(url)}/${i}`;
        try {
          responses.push(fromArchived(url, r, protocols[host] ?? null));
        } catch (e) {
          warnings.push(`${at}: left out: ${(e as Error).message}`);
        }
      });
    }
  }
  if (!responses.length) throw new ImportError(source, "/Requests", "no request in it could be read");
  // When it was recorded; an archive without it is dated by its file.
  const recordedAtMs = Number.isFinite(archive.DeterministicTimeSeedMs) && archive.DeterministicTimeSeedMs > 0 ? archive.DeterministicTimeSeedMs : (options.fileTimeMs ?? 0);
  return importUntimed(responses, "wpr", source, recordedAtMs, options, warnings);
}

function fromArchived(url: string, r: P, protocol: string | null): WithProblem {
  if (!URL.canParse(url)) throw new Error(`"${url.slice(0, 100)}" is not a URL`);
  if (typeof r?.SerializedRequest !== "string") throw new Error("no SerializedRequest");
  const request = parseHttpMessage(Buffer.from(r.SerializedRequest, "base64"));
  const line = requestLine(request.firstLine);
  if (!line) throw new Error(`request line "${request.firstLine.slice(0, 80)}" is not METHOD TARGET VERSION`);
  if (typeof r.SerializedResponse !== "string" || !r.SerializedResponse) {
    // WPR records a failed request with no response.
    const failed = untimedResponse(url, line.method, request, { firstLine: "", headers: [], body: Buffer.alloc(0) }, { version: "HTTP/1.1", status: 0, statusText: "" }, null);
    return { ...failed, status: null, failure: "the archive holds no response: the request failed when it was recorded", body: null, bodySize: null };
  }
  const response = parseHttpMessage(Buffer.from(r.SerializedResponse, "base64"));
  const status = statusLine(response.firstLine);
  if (!status) throw new Error(`status line "${response.firstLine.slice(0, 80)}" is not VERSION CODE REASON`);
  const out = untimedResponse(url, line.method, request, response, status, null);
  return protocol ? { ...out, protocol: protocol === "h2" ? "h2" : protocol.toLowerCase() } : out;
}

/** RFC 6901: ~ and / escaped in a pointer's part. */
function pointerPart(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}
