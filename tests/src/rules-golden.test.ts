import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fixtureDir, serveSite, type RunningSite } from "@pagepath/corpus";
import { buildGraph, canonicalGraph, loadRecording, validateGraph, type Graph } from "@pagepath/graph-builder";
import { tempDir } from "./fixture-profile.js";
import { GOLDEN, goldenDiff, profileRulePages, rulePages } from "./rules-fixtures.js";

const UPDATE = process.env.PAGEPATH_UPDATE_GOLDEN === "1";

describe("graphs of the rule fixture pages, profiled in Chromium, against their golden structure", () => {
  let site: RunningSite;
  const graphs = new Map<string, Graph>();

  before(async () => {
    site = await serveSite(fixtureDir("rules"));
    const recordings = await profileRulePages(site, tempDir("rules"));
    for (const [page, dir] of recordings) graphs.set(page, buildGraph(loadRecording(dir)));
    if (UPDATE) mkdirSync(GOLDEN, { recursive: true });
  });
  after(async () => site?.close());

  for (const page of rulePages()) {
    it(`${page}: valid, and the structure matches golden/${page}.json`, () => {
      const g = graphs.get(page)!;
      assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), page), []);
      assert.equal(g.mode, "full");
      assert.equal(g.criticalPath.nodes.at(-1), g.frames.find((f) => f.id === g.mainFrame)!.load, "the critical path ends at the load marker");
      const actual = canonicalGraph(g);
      if (UPDATE) writeFileSync(join(GOLDEN, `${page}.json`), JSON.stringify(actual, null, 1) + "\n");
      const d = goldenDiff(page, actual);
      assert.equal(d, "", `${page} differs from its golden graph:\n${d}`);
    });
  }

  it("the thesis's example page (Fig 3.1/3.5) yields the structure of Fig 3.6", () => {
    const c = canonicalGraph(graphs.get("thesis-example")!);
    const has = (edge: string) => assert.ok(c.edges.includes(edge), `missing ${edge}\nedges:\n${c.edges.join("\n")}`);
    const doc = "www.rules.test/thesis-example.html";
    // The inline script blocks the next parse chunk (①).
    has(`parse:${doc}#0 -> js:inline:${doc}@2 [R12]`);
    has(`js:inline:${doc}@2 -> parse:${doc}#1 [R4]`);
    // theme.css is fetched by the parser and evaluated (③); the external script likewise (②) and creates sea.png.
    assert.ok(c.edges.some((e) => /^parse:.* -> res:cdn\.rules\.test\/theme\.css \[R1\]$/.test(e)));
    has("res:cdn.rules.test/theme.css -> css:cdn.rules.test/theme.css [R18]");
    has("res:cdn.rules.test/image_create_sea_append.js -> js:sync:cdn.rules.test/image_create_sea_append.js [R10]");
    has("js:sync:cdn.rules.test/image_create_sea_append.js -> res:cdn.rules.test/img/sea.png [R2]");
    // DOMContentLoaded after parsing; load after it and after the resources.
    assert.ok(c.edges.some((e) => new RegExp(`^parse:${doc}#\\d+ -> dcl:${doc} \\[completion-dcl\\]$`).test(e)));
    has(`dcl:${doc} -> load:${doc} [completion-load]`);
    has(`res:cdn.rules.test/img/sea.png -> load:${doc} [completion-load]`);
    // The body's load handler sets the timer that downloads rainbow: after load, so not emulated.
    has(`load:${doc} -> event:window:load [completion-event]`);
    has("event:window:load -> timer:timer downloadImage 10 ms [R20]");
    has("timer:timer downloadImage 10 ms -> res:cdn.rules.test/img/rainbow.png [R2]");
    assert.ok(c.nodes.includes("res:cdn.rules.test/img/rainbow.png [after-load]"));
  });
});
