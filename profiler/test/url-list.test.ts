import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseUrlList } from "../src/url-list.js";
import { NO_CONDITIONS, parseDevice, parseNetwork } from "../src/conditions.js";
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

  it("say the conditions of the load, and keep the name they always had under the defaults", () => {
    const url = "https://www.example.test/a/b?x=1";
    // The name recordings made before names carried conditions have: the corpus and users name them.
    assert.equal(recordingName(url), "www.example.test_a_b-24720e8c");
    assert.equal(recordingName(url, NO_CONDITIONS), recordingName(url));
    const cpu = { ...NO_CONDITIONS, cpuThrottlingRate: 4 };
    const all = { cpuThrottlingRate: 4, network: parseNetwork("fast-3g"), device: parseDevice("iPhone 15 Pro") };
    assert.match(recordingName(url, cpu), /^www\.example\.test_a_b-cpu4-[0-9a-f]{8}$/);
    assert.match(recordingName(url, all), /^www\.example\.test_a_b-cpu4_fast-3g_iPhone_15_Pro-[0-9a-f]{8}$/);
    assert.match(recordingName(url, { ...NO_CONDITIONS, network: parseNetwork("150,2000,500") }), /-net150ms-2000k-500k-[0-9a-f]{8}$/);
    const names = [recordingName(url), recordingName(url, cpu), recordingName(url, all), recordingName(url, { ...all, device: parseDevice("390x844@3") })];
    assert.equal(new Set(names).size, names.length, names.join(", "));
    assert.equal(recordingName(url, { ...all }), recordingName(url, all), "the same conditions, the same name");
  });
});
