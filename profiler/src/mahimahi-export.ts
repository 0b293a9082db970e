import { exportedMessages } from "./export-messages.js";
import type { HttpMessage } from "./http-message.js";
import { REQUEST_RESPONSE } from "./mahimahi-import.js";
import type { ArchiveEntry } from "./recording.js";

/**
 * A recording as an mm-webrecord folder: one RequestResponse per response that crossed the wire,
 * named save.NNNN, so that Mahimahi's mm-webreplay serves the page. File name to bytes.
 */
export function toMahimahi(archive: ArchiveEntry[], body: (sha256: string) => Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const e of archive) {
    const m = exportedMessages(e, e.body ? body(e.body.sha256) : Buffer.alloc(0));
    if (!m) continue;
    const url = new URL(e.url);
    const [ip, port] = address(e.response!.remoteAddress, url);
    const record = REQUEST_RESPONSE.fromObject({ ip, port, scheme: url.protocol === "https:" ? 2 : 1, request: message(m.request), response: message(m.response) });
    files.set(`save.${String(files.size + 1).padStart(4, "0")}`, Buffer.from(REQUEST_RESPONSE.encode(record).finish()));
  }
  return files;
}

function message(m: HttpMessage) {
  return { first_line: Buffer.from(m.firstLine, "latin1"), header: m.headers.map(([key, value]) => ({ key: Buffer.from(key, "latin1"), value: Buffer.from(value, "latin1") })), body: m.body };
}

/** The server's address as Mahimahi keeps it (ip, port), from the recording or the URL. */
function address(remote: string | null, url: URL): [string, number] {
  const m = remote ? /^\[?([^\]]+?)\]?:(\d+)$/.exec(remote) : null;
  if (m) return [m[1]!, Number(m[2])];
  return ["0.0.0.0", Number(url.port) || (url.protocol === "https:" ? 443 : 80)];
}
