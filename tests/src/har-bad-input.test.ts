import assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

/** `pagepath har` on what is not a recording names the path and what it is instead. */
describe("pagepath har: bad input", () => {
  const root = tempDir("har-bad");
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a folder that does not exist is named as such, not as a missing manifest", async () => {
    const missing = join(root, "no-such-recording");
    const r = await runCli(["har", missing]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), `pagepath har: ${missing}: no such directory`);
    assert.ok(!existsSync(missing), "nothing was created");
  });

  it("a file, and a folder without a manifest, each say what they are", async () => {
    const file = join(root, "a-file");
    writeFileSync(file, "");
    const onFile = await runCli(["har", file]);
    assert.notEqual(onFile.code, 0);
    assert.match(onFile.stderr, new RegExp(`^pagepath har: ${file}: not a directory`));
    const empty = join(root, "empty");
    mkdirSync(empty);
    const onEmpty = await runCli(["har", empty]);
    assert.notEqual(onEmpty.code, 0);
    assert.match(onEmpty.stderr, new RegExp(`^pagepath har: ${empty}/manifest.json: missing: this directory is not a pagepath recording`));
  });
});
