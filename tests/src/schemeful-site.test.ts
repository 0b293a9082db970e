import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { schemefulSite } from "@pagepath/graph-builder/dist/src/site.js";

describe("a URL's schemeful site, as Chromium partitions network state by it", () => {
  it("is the scheme and the registrable domain", () => {
    assert.equal(schemefulSite("https://cdn1.gen5.test/img/a.png"), "https://gen5.test");
    assert.equal(schemefulSite("https://www.gen5.test/"), schemefulSite("https://static.gen5.test:8443/x"));
    assert.notEqual(schemefulSite("https://ads-pmpicz.test/frames/r104.html"), schemefulSite("https://www.gen5.test/"));
    assert.equal(schemefulSite("https://a.b.example.co.uk/"), "https://example.co.uk", "a public suffix of two labels");
    assert.notEqual(schemefulSite("http://gen5.test/"), schemefulSite("https://gen5.test/"), "the scheme counts");
  });

  it("is the host where there is no registrable domain, and the text where there is no URL", () => {
    assert.equal(schemefulSite("https://127.0.0.1:8443/"), "https://127.0.0.1");
    assert.equal(schemefulSite("about:blank"), "about://");
    assert.equal(schemefulSite("not a url"), "not a url");
  });
});
