/**
 * The importers' parsers fed what a user's disk may hold (property-based, fast-check): any input
 * either imports or fails with an ImportError that names the file; nothing else escapes (no
 * TypeError from a field of the wrong type), and nothing hangs (each test has a time limit).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { ImportError, importHar, importMahimahi, importWpr, REQUEST_RESPONSE } from "@pagepath/profiler";

const RUNS = { numRuns: 300, seed: 24 };

/** What a JavaScript slip says, which a user should never be shown as the reason for anything. */
const SLIP = /Cannot read|Cannot convert|is not a function|is not iterable|undefined|TypeError|RangeError/;

/** Runs `f` and says how it ended: imported (warnings in words), or refused with a clear error naming `source`. */
function importsOrRefuses(source: string, f: () => { warnings: string[] }): void {
  try {
    for (const w of f().warnings) assert.doesNotMatch(w, SLIP, `a warning that is a slip: ${w}`);
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    assert.ok(e instanceof ImportError, `not an ImportError: ${(e as Error).stack}`);
    assert.ok(e.message.startsWith(`${source}: `), `the error does not name the file: ${e.message}`);
    assert.doesNotMatch(e.message, SLIP, `an error that is a slip: ${e.message}`);
  }
}

/** A value of the right type most of the time, anything at all otherwise. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: fc.anything() });

/**
 * An entry whose fields checkEntry refuses are right (`valid`), so that the import goes past them
 * into the rest of the code, or anything may be wrong (`!valid`).
 */
const harEntry = (valid: boolean) => {
  const must = <T>(good: fc.Arbitrary<T>) => (valid ? good : mostly(good));
  return fc.record(
  {
    pageref: mostly(fc.constantFrom("page_1", "page_2")),
    startedDateTime: must(fc.date({ min: new Date(2020, 0, 1), max: new Date(2030, 0, 1), noInvalidDate: true }).map((d) => d.toISOString())),
    time: mostly(fc.double({ min: -1, max: 1e5, noNaN: true })),
    request: must(fc.record({ method: must(fc.constantFrom("GET", "POST")), url: must(fc.oneof(fc.webUrl(), fc.constantFrom("https://a.test/", "https://a.test/x.css", "https://b.test/y.png"))), headers: mostly(fc.array(fc.record({ name: fc.string(), value: fc.string() }))), postData: fc.anything() }, { requiredKeys: valid ? ["method", "url"] : [] })),
    response: must(
      fc.record(
        {
          status: must(fc.integer({ min: 0, max: 599 })),
          headers: mostly(fc.array(fc.record({ name: fc.constantFrom("Location", "Content-Type", "Sec-Fetch-Dest", "x"), value: fc.string() }))),
          content: mostly(fc.record({ size: mostly(fc.integer({ min: -1, max: 1e5 })), mimeType: mostly(fc.constantFrom("text/html", "text/css", "image/png", "application/javascript")), text: mostly(fc.string()), encoding: fc.constantFrom(undefined, "base64", 7) }, { requiredKeys: [] })),
          redirectURL: mostly(fc.webUrl()),
          bodySize: fc.anything(),
          _transferSize: fc.anything(),
          _error: fc.anything(),
        },
        { requiredKeys: valid ? ["status"] : [] },
      ),
    ),
    timings: mostly(fc.dictionary(fc.constantFrom("blocked", "dns", "connect", "ssl", "send", "wait", "receive"), fc.oneof(fc.double({ noNaN: true }), fc.anything()))),
    _initiator: fc.anything(),
    _resourceType: fc.anything(),
    _fromCache: fc.anything(),
  },
  { requiredKeys: valid ? ["startedDateTime", "request", "response"] : [] },
  );
};

const har = (valid: boolean) => fc.record({
  log: (valid ? <T>(a: fc.Arbitrary<T>) => a : mostly)(
    fc.record(
      {
        pages: mostly(fc.array(fc.record({ id: mostly(fc.constantFrom("page_1", "page_2")), startedDateTime: fc.anything(), pageTimings: fc.anything() }, { requiredKeys: [] }), { maxLength: 2 })),
        entries: valid ? fc.array(harEntry(true), { minLength: 1, maxLength: 12 }) : mostly(fc.array(harEntry(false), { maxLength: 12 })),
        creator: fc.anything(),
        browser: fc.anything(),
      },
      { requiredKeys: valid ? ["entries"] : [] },
    ),
  ),
});

describe("the importers, fuzzed", { timeout: 120_000 }, () => {
  it("a HAR of any shape imports or is refused with an error naming the file", () => {
    for (const valid of [true, false]) fc.assert(fc.property(har(valid), (h) => importsOrRefuses("f.har", () => importHar(h, "f.har"))), RUNS);
    fc.assert(fc.property(fc.jsonValue(), (v) => importsOrRefuses("f.har", () => importHar(v, "f.har"))), RUNS);
  });

  const record = (url: string, status: string, body: Uint8Array) =>
    Buffer.from(
      REQUEST_RESPONSE.encode(
        REQUEST_RESPONSE.fromObject({
          ip: "10.0.0.1",
          port: 443,
          scheme: 2,
          request: { first_line: Buffer.from(`GET ${url} HTTP/1.1`), header: [{ key: Buffer.from("Host"), value: Buffer.from("a.test") }] },
          response: { first_line: Buffer.from(status), header: [{ key: Buffer.from("Content-Type"), value: Buffer.from("text/html") }, { key: Buffer.from("Content-Encoding"), value: Buffer.from("gzip") }], body },
        }),
      ).finish(),
    );

  it("an mm-webrecord folder of any bytes, or of records cut or changed anywhere, imports or is refused", () => {
    const files = fc.array(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
        fc.tuple(fc.string(), fc.string(), fc.uint8Array({ maxLength: 200 }), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([url, status, body, at, byte]) => {
          const b = record(url, status, body);
          if (b.length) b[at % b.length] = byte;
          return b.subarray(0, Math.max(1, b.length - (at % 7)));
        }),
        fc.tuple(fc.constantFrom("/", "/a.css", "/b"), fc.constantFrom("HTTP/1.1 200 OK", "HTTP/1.1 301 Moved"), fc.uint8Array({ maxLength: 100 })).map(([u, s, b]) => record(u, s, b)),
      ),
      { maxLength: 8 },
    );
    fc.assert(fc.property(files, fc.option(fc.webUrl(), { nil: null }), (bytes, page) => importsOrRefuses("mm", () => importMahimahi(bytes.map((b, i) => ({ name: `save.${i}`, bytes: b, mtimeMs: 0 })), "mm", { page }))), RUNS);
  });

  it("a Web Page Replay archive of any bytes, or of any JSON, or with raw messages of any bytes, imports or is refused", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (b) => importsOrRefuses("a.wprgo", () => importWpr(Buffer.from(b), "a.wprgo"))), RUNS);
    fc.assert(fc.property(fc.jsonValue(), (v) => importsOrRefuses("a.wprgo", () => importWpr(gzipSync(JSON.stringify(v) ?? "null"), "a.wprgo"))), RUNS);
    const raw = fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString("base64")), fc.string(), fc.anything());
    const archive = fc.dictionary(
      fc.constantFrom("a.test", "b.test"),
      fc.dictionary(fc.oneof(fc.webUrl(), fc.string()), fc.array(fc.record({ SerializedRequest: fc.oneof(raw, fc.constant(Buffer.from("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n").toString("base64"))), SerializedResponse: fc.oneof(raw, fc.constant(Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").toString("base64"))) }, { requiredKeys: [] }), { maxLength: 3 })),
    );
    fc.assert(fc.property(archive, fc.anything(), (requests, protocols) => importsOrRefuses("a.wprgo", () => importWpr(gzipSync(JSON.stringify({ Requests: requests, NegotiatedProtocol: protocols }) ?? "null"), "a.wprgo"))), RUNS);
  });
});
