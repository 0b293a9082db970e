import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { recordPage, writeRecording } from "@pagepath/profiler";
import type { RunningSite } from "@pagepath/corpus";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";

/** `pagepath har` on what is not a recording names the path and what it is instead. */
describe("pagepath har: bad input and standard output", () => {
  const root = tempDir("har-bad");

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

  describe("on a recording", () => {
    let site: RunningSite;
    let recording: string;
    before(async () => {
      site = await startFixture();
      recording = join(root, "recording");
      writeRecording(recording, (await recordPage(site.config.entry, optionsFor(site))).recording);
    });
    after(async () => site?.close());

    it("-o - writes the HAR to standard output and no file", async () => {
      const before = readdirSync(process.cwd());
      const r = await runCli(["har", recording, "-o", "-"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).log.version, "1.2");
      assert.deepEqual(readdirSync(process.cwd()), before, "no file named - in the working directory");
      assert.ok(!existsSync(join(recording, "recording.har")));
    });
  });
});
