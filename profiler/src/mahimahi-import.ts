import protobuf from "protobufjs";
import type { Imported } from "./har-import.js";
import { header, requestLine, statusLine, type HttpMessage } from "./http-message.js";
import { ImportError } from "./imported-recording.js";
import { importUntimed } from "./untimed-import.js";
import { untimedResponse, type WithProblem } from "./untimed-response.js";

/**
 * Mahimahi's record format (its protobufs/http_record.proto, proto2), written here from that
 * documented schema: mm-webrecord saves one RequestResponse per file, the request and the response
 * as their first line, headers and body exactly as they crossed the wire.
 */
const SCHEMA = `
syntax = "proto2";
package MahimahiProtobufs;
message HTTPHeader { optional bytes key = 1; optional bytes value = 2; }
message HTTPMessage { optional bytes first_line = 1; repeated HTTPHeader header = 2; optional bytes body = 3; }
message RequestResponse {
  optional string ip = 1;
  optional uint32 port = 2;
  enum Scheme { HTTP = 1; HTTPS = 2; }
  optional Scheme scheme = 3;
  optional HTTPMessage request = 4;
  optional HTTPMessage response = 5;
}
`;

const ROOT = protobuf.parse(SCHEMA, { keepCase: true }).root;
export const REQUEST_RESPONSE = ROOT.lookupType("MahimahiProtobufs.RequestResponse");

/** One file of an mm-webrecord folder. */
export interface ArchiveFile {
  name: string;
  bytes: Buffer;
  mtimeMs: number;
}

interface Decoded {
  ip?: string;
  port?: number;
  scheme?: number;
  request?: { first_line?: Uint8Array; header?: { key?: Uint8Array; value?: Uint8Array }[]; body?: Uint8Array };
  response?: { first_line?: Uint8Array; header?: { key?: Uint8Array; value?: Uint8Array }[]; body?: Uint8Array };
}

/**
 * An mm-webrecord folder as a recording. Mahimahi keeps no timing and does not say which request
 * was the page: the page is `page` or found (untimed-order.ts), and the order and times are
 * placeholders. A file that is not a RequestResponse is left out with a warning.
 */
export function importMahimahi(files: ArchiveFile[], source: string, options: { page?: string | null; keepCredentials?: boolean } = {}): Imported {
  const warnings: string[] = [];
  const responses: WithProblem[] = [];
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      responses.push(fromRecord(REQUEST_RESPONSE.toObject(REQUEST_RESPONSE.decode(f.bytes)) as Decoded));
    } catch (e) {
      warnings.push(`${f.name}: left out: not a Mahimahi RequestResponse (${(e as Error).message})`);
    }
  }
  if (!responses.length) throw new ImportError(source, "(folder)", `none of its ${files.length} files is a Mahimahi RequestResponse (protobufs/http_record.proto), as mm-webrecord saves them`);
  const recordedAtMs = Math.max(...files.map((f) => f.mtimeMs));
  return importUntimed(responses, "mahimahi", source, recordedAtMs, options, warnings);
}

function fromRecord(d: Decoded): WithProblem {
  const request = message(d.request, "request");
  const response = message(d.response, "response");
  const line = requestLine(request.firstLine);
  if (!line) throw new Error(`request line "${request.firstLine.slice(0, 80)}" is not METHOD TARGET VERSION`);
  const status = statusLine(response.firstLine);
  if (!status) throw new Error(`status line "${response.firstLine.slice(0, 80)}" is not VERSION CODE REASON`);
  const scheme = d.scheme === 2 ? "https" : "http";
  const host = header(request, "host") ?? `${d.ip ?? "0.0.0.0"}${d.port ? `:${d.port}` : ""}`;
  const url = /^https?:\/\//i.test(line.target) ? line.target : `${scheme}://${host}${line.target.startsWith("/") ? "" : "/"}${line.target}`;
  if (!URL.canParse(url)) throw new Error(`"${url.slice(0, 100)}" is not a URL`);
  return untimedResponse(url, line.method, request, response, status, d.ip && d.port ? `${d.ip}:${d.port}` : null);
}

function message(m: Decoded["request"], what: string): HttpMessage {
  if (!m?.first_line) throw new Error(`no ${what}`);
  const text = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString("latin1");
  return {
    firstLine: text(m.first_line),
    headers: (m.header ?? []).map((h) => [text(h.key), text(h.value)] as [string, string]),
    body: Buffer.from(m.body ?? []),
  };
}
