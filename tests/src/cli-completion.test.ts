import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";

/** What bash offers for the words typed so far (the last one being completed), with the script loaded. */
function complete(script: string, words: string[]): string[] {
  const cmd = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _pagepath; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["-c", cmd], { encoding: "utf8" }).split("\n").filter(Boolean);
}

describe("pagepath completion", () => {
  it("bash completes every verb the overview lists, their subcommands and their options", async () => {
    const script = (await runCli(["completion", "bash"])).stdout;
    const overview = (await runCli(["--help"])).stdout;
    const verbs = [...overview.matchAll(/^ {2}(\S+) {2}/gm)].map((m) => m[1]!);
    assert.ok(verbs.length >= 20, overview);
    assert.deepEqual(complete(script, ["pagepath", ""]).filter((w) => w !== "help"), verbs);
    assert.deepEqual(complete(script, ["./pagepath", "imp"]), ["import"]);
    assert.deepEqual(complete(script, ["pagepath", "import", ""]), ["har", "mahimahi", "wpr"]);
    assert.deepEqual(complete(script, ["pagepath", "import", "mahimahi", "--pa"]), ["--page"]);
    assert.deepEqual(complete(script, ["pagepath", "corpus", "build", "--gen"]), ["--generated"]);
    assert.deepEqual(complete(script, ["pagepath", "net", "p"]), ["ping", "plot"]);
    assert.deepEqual(complete(script, ["pagepath", "replay", "--tra"]), ["--transport"]);
    assert.ok(complete(script, ["pagepath", "build", "READ"]).includes("README.md"), "file names after the verb");
    const zsh = await runCli(["completion", "zsh"]);
    assert.match(zsh.stdout, /^autoload -U \+X bashcompinit && bashcompinit\n# pagepath completion for bash/);
    const bad = await runCli(["completion", "fish"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected bash or zsh/);
  });
});
