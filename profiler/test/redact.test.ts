import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REDACTED, redactEventParams, redactHeaders, redactHeadersText, redactUrl } from "../src/redact.js";

describe("redaction", () => {
  it("replaces credential headers whatever their case, and keeps the rest", () => {
    assert.deepEqual(redactHeaders({ Cookie: "a=1", authorization: "Bearer x", Accept: "*/*", "X-Api-Key": "k" }), {
      Cookie: REDACTED, authorization: REDACTED, Accept: "*/*", "X-Api-Key": REDACTED,
    });
  });

  it("redacts raw header text line by line, HTTP/2 pseudo-headers included", () => {
    const text = ":status: 200\r\nset-cookie: s=secret\r\ncontent-type: text/html\r\n";
    assert.equal(redactHeadersText(text), `:status: 200\r\nset-cookie: ${REDACTED}\r\ncontent-type: text/html\r\n`);
  });

  it("drops user:password from URLs", () => {
    assert.equal(redactUrl("https://bob:hunter2@example.test/a?b=1"), "https://example.test/a?b=1");
    assert.equal(redactUrl("https://example.test/@home"), "https://example.test/@home");
  });

  it("walks whole CDP events: nested headers, raw text, cookie lists", () => {
    const p = {
      request: { url: "https://u:p@x.test/", headers: { Cookie: "c=secret", Referer: "r" } },
      redirectResponse: { headers: { "Set-Cookie": "d=secret" }, headersText: "Set-Cookie: d=secret\r\n" },
      associatedCookies: [{ cookie: { name: "c", value: "secret" } }],
      headersText: "HTTP/1.1 200 OK\r\nSet-Cookie: e=secret\r\n",
    };
    const out = JSON.stringify(redactEventParams(p));
    assert.ok(!out.includes("secret"), out);
    assert.ok(out.includes('"Referer":"r"'));
    assert.ok(!out.includes("u:p@"));
  });
});
