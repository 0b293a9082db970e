/** GET /api/headers: a graph's fetch headers come from its recording only when that is inside the served directory. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startViewer } from "@pagepath/viewer";
import { tempDir } from "./fixture-profile.js";

describe("viewer: headers from the recording", () => {
  it("reads none from a recording outside the served directory or missing, and says why", async () => {
    const dir = tempDir("viewer-headers");
    const graph = JSON.parse(readFileSync("graph-builder/test-vectors/valid/minimal.json", "utf8"));
    writeFileSync(join(dir, "outside.json"), JSON.stringify({ ...graph, source: { ...graph.source, recording: "/etc" } }));
    writeFileSync(join(dir, "gone.json"), JSON.stringify({ ...graph, source: { ...graph.source, recording: join(dir, "recordings", "gone") } }));
    const viewer = await startViewer({ dir, port: 0, prewarm: false });
    try {
      const get = async (file: string) => (await fetch(`${viewer.url}api/headers?file=${file}`)).json() as Promise<{ missing: string | null; nodes: object }>;
      const outside = await get("outside.json");
      assert.match(outside.missing ?? "", /the recording \/etc is outside the served directory/);
      assert.deepEqual(outside.nodes, {});
      assert.match((await get("gone.json")).missing ?? "", /is not on this machine/);
    } finally {
      await viewer.close();
    }
  });
});
