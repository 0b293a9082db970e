import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { importMahimahi, importWpr, REDACTED, REQUEST_RESPONSE, type ArchiveFile } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

const HTML = `<html><head><link rel="stylesheet" href="/s.css"></head><body><img src="https://img.arc.test/a.png"><iframe src="/frame.html"></iframe></body></html>`;
const CSS = "body { background: url(/bg.png) }";

/** A response's raw parts as an archive keeps them: what crossed the wire. */
interface Wire {
  method?: string;
  url: string;
  status?: number;
  headers?: [string, string][];
  body?: Buffer;
  requestHeaders?: [string, string][];
}

/** A body sent gzip-compressed and chunked, as a server streaming it would. */
function gzipChunked(text: string): { headers: [string, string][]; body: Buffer } {
  const gz = gzipSync(Buffer.from(text));
  const half = Math.floor(gz.length / 2);
  const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
  return {
    headers: [["Content-Type", "text/css"], ["Content-Encoding", "gzip"], ["Transfer-Encoding", "chunked"]],
    body: Buffer.concat([chunk(gz.subarray(0, half)), chunk(gz.subarray(half)), Buffer.from("0\r\n\r\n")]),
  };
}

function page(): Wire[] {
  const css = gzipChunked(CSS);
  return [
    { url: "http://www.arc.test/", status: 301, headers: [["Location", "https://www.arc.test/"]] },
    { url: "https://www.arc.test/", headers: [["Content-Type", "text/html; charset=utf-8"], ["Set-Cookie", "id=1"]], body: Buffer.from(HTML), requestHeaders: [["Cookie", "s=secret"]] },
    { url: "https://www.arc.test/s.css", ...css },
    { url: "https://img.arc.test/a.png", headers: [["Content-Type", "image/png"]], body: Buffer.alloc(3000, 7) },
    { url: "https://www.arc.test/bg.png", headers: [["Content-Type", "image/png"]], body: Buffer.alloc(500, 1) },
    { url: "https://www.arc.test/frame.html", headers: [["Content-Type", "text/html"]], body: Buffer.from("<p>frame</p>") },
    { url: "https://www.arc.test/favicon.ico", status: 404, headers: [["Content-Type", "text/plain"]], body: Buffer.from("no") },
  ];
}

function requestOf(w: Wire) {
  const u = new URL(w.url);
  return { firstLine: `${w.method ?? "GET"} ${u.pathname}${u.search} HTTP/1.1`, headers: [["Host", u.host], ...(w.requestHeaders ?? [])] as [string, string][] };
}

/** An mm-webrecord folder of the page, each file one RequestResponse made to Mahimahi's schema. */
function mahimahiFiles(wires: Wire[]): ArchiveFile[] {
  const bytes = (s: string) => Buffer.from(s, "latin1");
  return wires.map((w, i) => {
    const req = requestOf(w);
    const record = REQUEST_RESPONSE.fromObject({
      ip: "10.0.0.1",
      port: w.url.startsWith("https") ? 443 : 80,
      scheme: w.url.startsWith("https") ? 2 : 1,
      request: { first_line: bytes(req.firstLine), header: req.headers.map(([key, value]) => ({ key: bytes(key), value: bytes(value) })) },
      response: { first_line: bytes(`HTTP/1.1 ${w.status ?? 200} X`), header: (w.headers ?? []).map(([key, value]) => ({ key: bytes(key), value: bytes(value) })), body: w.body ?? Buffer.alloc(0) },
    });
    return { name: `save.${9 - i}`, bytes: Buffer.from(REQUEST_RESPONSE.encode(record).finish()), mtimeMs: Date.parse("2026-03-04T05:06:07Z") };
  });
}

/** The page as a Web Page Replay archive: raw HTTP/1.1 bytes, base64, by host and URL, gzip-compressed JSON. */
function wprArchive(wires: Wire[], extra: Record<string, unknown> = {}): Buffer {
  const requests: Record<string, Record<string, unknown[]>> = {};
  for (const w of wires) {
    const req = requestOf(w);
    const raw = (first: string, headers: [string, string][], body: Buffer) => Buffer.concat([Buffer.from([first, ...headers.map(([k, v]) => `${k}: ${v}`)].join("\r\n") + "\r\n\r\n", "latin1"), body]).toString("base64");
    const host = new URL(w.url).host;
    ((requests[host] ??= {})[w.url] ??= []).push({
      SerializedRequest: raw(req.firstLine, req.headers, Buffer.alloc(0)),
      SerializedResponse: raw(`HTTP/1.1 ${w.status ?? 200} X`, w.headers ?? [], w.body ?? Buffer.alloc(0)),
    });
  }
  return gzipSync(JSON.stringify({ Requests: requests, Certs: {}, NegotiatedProtocol: { "www.arc.test": "h2" }, DeterministicTimeSeedMs: Date.parse("2026-03-04T05:06:07Z"), ...extra }));
}

describe("pagepath import mahimahi and wpr", () => {
  for (const [format, load] of [
    ["mahimahi", (wires: Wire[]) => importMahimahi([...mahimahiFiles(wires), { name: "save.junk", bytes: Buffer.from("not a protobuf at all \u0000\u00ff"), mtimeMs: 0 }], "mm")],
    ["wpr", (wires: Wire[]) => importWpr(wprArchive(wires), "page.wprgo")],
  ] as const) {
    it(`${format}: the page found, bodies decoded as the page received them, requests in order of discovery off what named them, no server delay claimed`, () => {
      const { recording: r, warnings } = load(page());
      const byUrl = new Map(r.archive.map((e) => [e.url, e]));
      assert.equal(r.manifest.url, "http://www.arc.test/", "the page starts at the redirect that leads to its document");
      assert.equal(r.manifest.finalUrl, "https://www.arc.test/");
      assert.equal(r.manifest.status, "complete");
      assert.equal(r.manifest.imported?.format, format);
      assert.equal(r.manifest.startedAt, "2026-03-04T05:06:07.000Z");
      assert.ok(r.manifest.imported!.assumptions.some((a) => /no timing in the archive/.test(a)));
      const doc = byUrl.get("https://www.arc.test/")!;
      assert.equal(doc.requestId, byUrl.get("http://www.arc.test/")!.requestId, "the redirect and its target are one request");
      const css = byUrl.get("https://www.arc.test/s.css")!;
      assert.equal(r.bodies.get(css.body!.sha256)!.toString("utf8"), CSS, "chunks joined and gzip undone");
      assert.equal(css.response!.headers["Content-Encoding"], "gzip", "the headers are kept as sent");
      assert.deepEqual([css.initiator.url, css.initiator.inferred, css.resourceType], ["https://www.arc.test/", "referencing-response", "Stylesheet"]);
      assert.equal(byUrl.get("https://www.arc.test/bg.png")!.initiator.url, "https://www.arc.test/s.css");
      assert.ok(byUrl.get("https://www.arc.test/bg.png")!.times.start > css.times.end!, "what a style sheet names comes after it");
      assert.equal(byUrl.get("https://www.arc.test/frame.html")!.resourceType, "Document");
      assert.notEqual(byUrl.get("https://www.arc.test/frame.html")!.frameId, doc.frameId, "a document the page names is a frame of its own");
      assert.equal(byUrl.get("https://www.arc.test/favicon.ico")!.initiator.inferred, "document-order", "nothing names it");
      assert.ok(r.archive.every((e) => e.serverDelay.ms === null), "an untimed archive measures no server delay");
      assert.equal(doc.requestHeaders.Cookie, REDACTED);
      assert.equal(doc.response!.headers["Set-Cookie"], REDACTED);
      if (format === "mahimahi") assert.ok(warnings.some((w) => /save\.junk: left out: not a Mahimahi RequestResponse/.test(w)), warnings.join("\n"));
      else assert.equal(doc.response!.protocol, "h2", "the protocol WPR negotiated for the host");
    });
  }

  it("says which page to take when several HTML responses could be it, and takes the one named by --page", () => {
    const two: Wire[] = [...page().slice(1), { url: "https://other.arc.test/", headers: [["Content-Type", "text/html"]], body: Buffer.from("<p>other</p>") }];
    assert.throws(() => importMahimahi(mahimahiFiles(two), "mm"), /mm: --page: 2 HTML responses could be the page \(https:\/\/other\.arc\.test\/, https:\/\/www\.arc\.test\/\): say which with --page URL/);
    assert.equal(importWpr(wprArchive(two), "w", { page: "https://other.arc.test/" }).recording.manifest.url, "https://other.arc.test/");
    const undated = importWpr(wprArchive(page(), { DeterministicTimeSeedMs: undefined }), "w", { fileTimeMs: Date.parse("2025-05-05T00:00:00Z") });
    assert.equal(undated.recording.manifest.startedAt, "2025-05-05T00:00:00.000Z", "an archive without its time is dated by its file");
    assert.throws(() => importWpr(wprArchive(two), "w", { page: "https://nowhere.test/" }), /w: --page: no response for https:\/\/nowhere\.test\/ in the archive/);
  });

  it("reports a folder or file that is not an archive by name, and imports the others", async () => {
    const base = tempDir("import-archives");
    const good = join(base, "mm-good");
    mkdirSync(good);
    for (const f of mahimahiFiles(page())) writeFileSync(join(good, f.name), f.bytes);
    const junk = join(base, "mm-junk");
    mkdirSync(junk);
    writeFileSync(join(junk, "save.1"), "hello");
    const out = join(base, "recordings");
    const mm = await runCli(["import", "mahimahi", good, junk, join(base, "mm-missing"), "--out", out]);
    assert.equal(mm.code, 1, mm.stdout + mm.stderr);
    assert.match(mm.stdout, /mm-good -> .*www\.arc\.test-[0-9a-f]{8} {2}\(complete\)/);
    assert.match(mm.stderr, /2 of 3 not imported/);
    assert.match(mm.stderr, /mm-junk: \(folder\): none of its 1 files is a Mahimahi RequestResponse/);
    assert.match(mm.stderr, /mm-missing: cannot read the folder: ENOENT/);
    const notGzip = join(base, "plain.wprgo");
    writeFileSync(notGzip, "nothing");
    const noRequests = join(base, "empty.wprgo");
    writeFileSync(noRequests, gzipSync("{}"));
    const wpr = await runCli(["import", "wpr", notGzip, noRequests, "--out", out]);
    assert.equal(wpr.code, 1);
    assert.match(wpr.stderr, /plain\.wprgo: \(file\): not a Web Page Replay archive/);
    assert.match(wpr.stderr, /empty\.wprgo: \/Requests: missing/);
  });
});
