/**
 * Every command README.md and docs/experiments-queue.md show, read from them (not copied here) and
 * run as written in a fresh clone with the default folders, in the order the documents give them;
 * each must exit 0 and write what the document says it writes. Long commands are scaled down
 * through their own flags; commands that need a live website or other machines are skipped by
 * name. Needs root (emulated links) and the registry (corpus packages), as the README does.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { andParts, shellCommands, type DocCommand } from "./readme/commands.js";
import { OUTPUT_CHECKS, scaledDown, SKIP_MARK, SKIPPED, writtenPaths } from "./readme/expectations.js";
import { freshClone, REPO, strayFiles } from "./readme/fresh-clone.js";
import { runShell, Running } from "./readme/shell.js";

const DOCUMENTS = ["README.md", "docs/experiments-queue.md"];
const COMMAND_TIMEOUT_MS = 15 * 60_000;

function documentCommands(): DocCommand[] {
  return DOCUMENTS.flatMap((doc) => shellCommands(readFileSync(join(REPO, doc), "utf8"), doc));
}

/** A path a document says was written: `<time>` stands for any one entry of its folder. */
function written(dir: string, path: string): boolean {
  const placeholder = path.split("/").findIndex((s) => /^<.*>$/.test(s));
  if (placeholder < 0) return existsSync(join(dir, path));
  const parent = join(dir, ...path.split("/").slice(0, placeholder));
  return existsSync(parent) && readdirSync(parent).length > 0;
}

/** The topologies the documents bring up, to take down whatever happens. */
function topologyNames(commands: DocCommand[]): string[] {
  return commands.filter((c) => /pagepath net up/.test(c.text)).map((c) => /--name (\S+)/.exec(c.text)?.[1] ?? "net0");
}

describe("the README's commands, as written, in a fresh clone", { skip: process.getuid?.() !== 0 ? "needs root, as the README's replay commands do" : false }, () => {
  const commands = documentCommands();
  const clone = freshClone();
  const running: Running[] = [];
  after(async () => {
    for (const r of running) await r.stop();
    for (const name of topologyNames(commands)) await runShell(`./pagepath net down ${name}`, clone.dir, 60_000);
    await runShell("redis-cli -p 6380 -a example-pw --no-auth-warning shutdown nosave", clone.dir, 30_000);
    clone.remove();
  });

  it("skips only the commands the documents mark, each by name", () => {
    const marked = commands.filter((c) => SKIP_MARK.test(c.comment)).map((c) => c.text);
    const skippedHere = commands.flatMap((c) => andParts(c.text)).filter((t) => SKIPPED.some((s) => t.startsWith(s.prefix)));
    for (const t of marked) assert.ok(SKIPPED.some((s) => t.startsWith(s.prefix)), `${t}: marked as not runnable here, but not skipped by name in tests/src/readme/expectations.ts`);
    for (const s of SKIPPED) assert.ok(skippedHere.some((t) => t.startsWith(s.prefix)), `skipped "${s.prefix}" is in no document any more: drop it from the list`);
    assert.ok(commands.length - marked.length >= 30, `only ${commands.length - marked.length} runnable commands found: is the parser reading the documents?`);
  });

  for (const [i, command] of commands.entries()) {
    for (const part of andParts(command.text)) {
      const skip = SKIPPED.find((s) => part.startsWith(s.prefix));
      const background = part.endsWith("&");
      const text = scaledDown(background ? part.slice(0, -1).trim() : part);
      const title = `${command.source} #${i + 1}: ${part}${text !== part && !background ? `  (run as: ${text})` : ""}`;
      it(title, { skip: skip ? skip.why : false }, async () => {
        const check = OUTPUT_CHECKS.find((c) => c.match.test(text));
        if (background || check?.ready) {
          const r = new Running(text, clone.dir);
          running.push(r);
          // a command sent to the background is left to run; one that serves is used once ready
          if (check?.ready) {
            const url = (await r.ready(check.ready, 180_000))[0].match(/http:\/\/\S+/)?.[0];
            if (url) {
              const res = await fetch(url);
              assert.equal(res.status, 200, `${url}: ${res.status}`);
            }
          }
        } else {
          const r = await runShell(text, clone.dir, COMMAND_TIMEOUT_MS);
          assert.equal(r.code, 0, `${text}\nexited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
          const problem = check?.stdout?.(r.stdout);
          assert.equal(problem ?? null, null, `${text}: ${problem}`);
        }
        for (const p of writtenPaths(text, command.comment)) assert.ok(written(clone.dir, p), `${text}: the document says it writes ${p}, which is not there`);
        // a block's servers and workers stop where the block ends, as a reader would stop them
        const next = commands[i + 1];
        if (!next || next.block !== command.block || next.source !== command.source) {
          const last = andParts(command.text).at(-1) === part;
          if (last) for (const r of running.splice(0)) await r.stop();
        }
      });
    }
  }

  it("leaves nothing git would see: every output is ignored and no tracked file is changed", () => {
    assert.deepEqual(strayFiles(clone.dir), []);
    assert.ok(!existsSync(join(clone.dir, dirname("out/demo/graph.json"), "..", "..", "docs", "reproduction", "README.md.new")));
  });
});
