import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { visibleSegment } from "@pagepath/viewer/dist/ui/clip-segment.js";

const view = { x0: 100, y0: -10, x1: 200, y1: 10 };

describe("visibleSegment", () => {
  it("cuts a long line to the view, its start on a whole dash period from the line's start", () => {
    const s = visibleSegment(0, 0, 10_000, 0, view, 8)!.map((v) => Math.round(v * 1e6) / 1e6);
    assert.deepEqual(s, [96, 0, 200, 0]);
    // Panning by less than a period leaves the dashes where they were: the same start.
    assert.ok(Math.abs(visibleSegment(0, 0, 10_000, 0, { ...view, x0: 101, x1: 201 }, 8)![0] - 96) < 1e-6);
  });

  it("keeps a line inside the view whole and drops one outside it", () => {
    assert.deepEqual(visibleSegment(120, 0, 180, 5, view, 8), [120, 0, 180, 5]);
    assert.equal(visibleSegment(0, 50, 10_000, 50, view, 8), null);
    assert.equal(visibleSegment(0, 0, 50, 0, view, 8), null);
  });
});
