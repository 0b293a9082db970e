import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scanPreconnects } from "@pagepath/graph-builder";

describe("<link rel=preconnect> in a document's markup", () => {
  const base = "https://www.site.test/docs/index.html";

  it("gives each http(s) hint's origin, its credentials mode and its line", () => {
    const html = [
      "<!doctype html><head>",
      '<link rel="preconnect" href="https://fonts.test/css?x=1">',
      '<LINK REL="Preconnect dns-prefetch" HREF="//cdn.test:8443/" crossorigin>',
      "<link rel=preconnect href=https://api.test crossorigin=anonymous />",
      '<link rel="preconnect" href="https://auth.test" crossorigin="use-credentials">',
      '<link rel="preconnect" href="/same-origin">',
    ].join("\n");
    assert.deepEqual(scanPreconnects(html, base), [
      { origin: "https://fonts.test", privacyMode: false, line: 1 },
      { origin: "https://cdn.test:8443", privacyMode: true, line: 2 },
      { origin: "https://api.test", privacyMode: true, line: 3 },
      { origin: "https://auth.test", privacyMode: false, line: 4 },
      { origin: "https://www.site.test", privacyMode: false, line: 5 },
    ]);
  });

  it("leaves out other rels, other schemes and hrefs that are not URLs", () => {
    const html = [
      '<link rel="dns-prefetch" href="https://dns.test">',
      '<link rel="preload" href="https://preload.test/a.css" as="style">',
      '<link rel="preconnect" href="ftp://files.test">',
      '<link rel="preconnect" href="https://[bad">',
      '<link rel="preconnect">',
    ].join("\n");
    assert.deepEqual(scanPreconnects(html, base), []);
  });
});
