import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { summariseAccuracy, type AccuracySample } from "@pagepath/results";
import { accuracyMarkdown } from "@pagepath/cli/dist/src/verbs/accuracy-markdown.js";

const sample = (site: string, condition: string, client: "emulated" | "chromium", load: number): AccuracySample => ({
  site, condition, protocol: "h2", client, metrics: { load },
});

describe("accuracy.md, the report docs/accuracy.md shows", () => {
  it("gives the command, the scale, a row per metric and protocol, the plots and the worst cells", () => {
    const summary = summariseAccuracy([
      sample("a", "10mbit-40ms", "chromium", 1000), sample("a", "10mbit-40ms", "chromium", 1100), sample("a", "10mbit-40ms", "emulated", 1200),
      sample("b", "10mbit-40ms", "chromium", 500), sample("b", "10mbit-40ms", "emulated", 450),
    ]);
    const md = accuracyMarkdown(summary, { command: "pagepath accuracy --sites a,b", sites: ["a", "b"], conditions: ["10mbit-40ms"], protocols: ["h2"], runs: 2 }, null);
    assert.match(md, /^pagepath accuracy --sites a,b$/m);
    assert.match(md, /Scale: 2 sites \(a, b\) x 1 conditions \(10mbit-40ms\) x 1 protocols \(h2\) x 2 runs/);
    // a: Chromium's median 1050, emulated 1200: 14.3%; b: 10.0%. Median of the two 12.1%.
    assert.match(md, /^\| load time \| h2 \| 2 \| 12\.1% \|/m);
    assert.match(md, /!\[emulated against Chromium\]\(accuracy-load-h2\.svg\)/);
    assert.match(md, /^- a at 10mbit-40ms: emulated 1200 ms, Chromium 1050 ms \(\+14\.3%/m);
    assert.doesNotMatch(md, /Lantern/);
  });

  it("breaks each metric's error down by condition, in the sweep's order", () => {
    const summary = summariseAccuracy([
      sample("a", "1mbit-100ms", "chromium", 10_000), sample("a", "1mbit-100ms", "emulated", 10_100),
      sample("b", "1mbit-100ms", "chromium", 20_000), sample("b", "1mbit-100ms", "emulated", 20_400),
      sample("a", "25mbit-20ms", "chromium", 1000), sample("a", "25mbit-20ms", "emulated", 800),
      sample("b", "25mbit-20ms", "chromium", 500), sample("b", "25mbit-20ms", "emulated", 450),
    ]);
    const md = accuracyMarkdown(summary, { command: "pagepath accuracy", sites: ["a", "b"], conditions: ["25mbit-20ms", "1mbit-100ms"], protocols: ["h2"], runs: 1 }, null);
    const rows = md.split("\n").filter((l) => /^\| load time \| h2 \| \d+mbit/.test(l));
    // 25 Mbit/s: -20% and -10%; 1 Mbit/s: +1% and +2%; p90 interpolated between the two, as the overall one.
    assert.deepEqual(rows, ["| load time | h2 | 25mbit-20ms | 2 | 15.0% | 19.0% | -15.0% | - |", "| load time | h2 | 1mbit-100ms | 2 | 1.5% | 1.9% | +1.5% | - |"]);
  });

  it("says how often the clients painted the same LCP element, and names both where a worst cell's differ", () => {
    const lcp = (site: string, client: "emulated" | "chromium", value: number, element: string): AccuracySample => ({
      site, condition: "5mbit-50ms", protocol: "h2", client, metrics: { lcp: value }, lcpElement: element,
    });
    const hero = "image IMG https://a.test/hero.jpg";
    const summary = summariseAccuracy([
      lcp("a", "chromium", 1000, hero), lcp("a", "emulated", 1100, hero),
      lcp("b", "chromium", 1000, "text H1"), lcp("b", "emulated", 1500, hero),
    ]);
    const md = accuracyMarkdown(summary, { command: "pagepath accuracy", sites: ["a", "b"], conditions: ["5mbit-50ms"], protocols: ["h2"], runs: 1 }, null);
    assert.match(md, /^The LCP element: the same in 1 of the 2 cells where both clients name theirs \(median APE 10\.0% in those, 50\.0% in the others\)\.$/m);
    assert.match(md, /^- b at 5mbit-50ms: .*; Chromium painted text H1, the emulated browser image IMG https:\/\/a\.test\/hero\.jpg$/m);
    assert.doesNotMatch(md, /^- a at .*Chromium painted/m);
  });
});
