import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { buildGraph, loadRecording } from "@pagepath/graph-builder";
import { readRecording } from "@pagepath/profiler";
import { tempDir } from "./fixture-profile.js";
import { recordFidelityPages, type FidelityPage } from "./fidelity-fixtures.js";

/** Pages whose graphs rest on trace events of every kind the builder reads: modules, workers, a synchronous request, timers, paints. */
const PAGES: FidelityPage[] = ["moduleChain", "dynamicImport", "worker", "syncXhr", "scriptInserted", "xhrBeforeLoad", "lazyImages", "fontDisplay"];

/**
 * The builder loads only the trace events it reads (graph-builder/src/trace-selection.ts): a name
 * it reads but the selection lacks would change graphs silently. Each fixture page, recorded by
 * Chromium, must build the same graph from the selected events as from the whole trace.
 */
describe("the graph builder's trace selection", () => {
  const work = tempDir("trace-selection");
  let recordings = new Map<FidelityPage, string>();
  before(async () => {
    recordings = await recordFidelityPages(join(work, "recordings"), PAGES);
  });

  for (const page of PAGES) {
    it(`${page}: the same graph from the selected events as from the whole trace`, () => {
      const dir = recordings.get(page)!;
      const selected = loadRecording(dir);
      const whole = { ...selected, trace: readRecording(dir).trace };
      assert.ok(whole.trace && selected.trace && selected.trace.length < whole.trace.length, `fewer events selected (${selected.trace?.length} of ${whole.trace?.length})`);
      const strip = (g: ReturnType<typeof buildGraph>) => ({ ...g, tool: null });
      assert.deepEqual(strip(buildGraph(selected)), strip(buildGraph(whole)));
    });
  }
});
