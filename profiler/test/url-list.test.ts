import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseUrlList } from "../src/url-list.js";
import { recordingName } from "../src/slug.js";

describe("URL lists", () => {
  it("skips comments and blank lines", () => {
    assert.deepEqual(parseUrlList("# sites\nhttps://a.test/\n\n  http://b.test/x  \n", "l.txt"), ["https://a.test/", "http://b.test/x"]);
  });

  it("names every bad line", () => {
    assert.throws(() => parseUrlList("https://a.test/\nnope\njavascript:alert(1)\n", "l.txt"), (e: Error) => {
      assert.match(e.message, /l\.txt:2: "nope" is not a URL/);
      assert.match(e.message, /l\.txt:3: .*only http and https/);
      return true;
    });
  });

  it("refuses an empty list", () => {
    assert.throws(() => parseUrlList("# nothing\n", "l.txt"), /l\.txt: no URLs/);
  });
});

describe("recording directory names", () => {
  it("are readable, safe and unique", () => {
    const a = recordingName("https://www.example.test/a/b?x=1");
    assert.match(a, /^www\.example\.test_a_b-[0-9a-f]{8}$/);
    assert.notEqual(a, recordingName("https://www.example.test/a/b?x=2"));
    for (const hostile of ["https://x.test/../../etc/passwd", "https://x.test/..%2f..%2f", "https://x.test/" + "a".repeat(500)]) {
      const n = recordingName(hostile);
      assert.ok(!n.includes("/") && !n.includes("..") && n.length <= 90, n);
    }
  });
});
