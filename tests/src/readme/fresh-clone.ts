import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@pagepath/temp-dirs";

export const REPO = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * A fresh clone of this checkout's HEAD, as a new user has after `git clone`, with the build outputs
 * of this checkout (node_modules, each package's dist, the Rust binaries) linked in: CI built and
 * installed them a moment ago on this very machine, and building them again would only cost time.
 * Everything else the commands find there is what git gives them.
 */
export function freshClone(): { dir: string; remove: () => void } {
  const parent = tempDir("readme");
  const dir = join(parent, "pagepath");
  execFileSync("git", ["clone", "--quiet", REPO, dir], { stdio: ["ignore", "ignore", "pipe"] });
  const built = execFileSync("git", ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory"], { cwd: REPO, encoding: "utf8" })
    .split("\n")
    .map((p) => p.replace(/\/$/, ""))
    .filter((p) => /(^|\/)(node_modules|dist|target)$/.test(p) && !p.includes("/node_modules/"));
  for (const p of built) {
    if (!existsSync(join(dir, dirname(p)))) continue;
    symlinkSync(join(REPO, p), join(dir, p));
    // git ignores folders by a trailing slash, which a link to one is not
    appendFileSync(join(dir, ".git", "info", "exclude"), `/${p}\n`);
  }
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Files git sees as new or changed in the clone: what a command wrote where the user would commit it. */
export function strayFiles(dir: string): string[] {
  return execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" }).split("\n").filter(Boolean);
}
