import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PackagePin } from "./recipe.js";

const STAMP = ".pagepath-integrity";

/** The folder a pinned package unpacks to under the package store. */
export function packageDir(storeDir: string, pin: PackagePin): string {
  return join(storeDir, pin.spec.replace(/\//g, "+"));
}

/**
 * Fetches a pinned package's tarball through npm (the registry the project's npm is configured
 * for, or npm's cache), checks it against the pinned integrity, and unpacks it once into the
 * store. A tarball that does not match is refused: the corpus is the same on every machine or
 * not built at all.
 */
export function obtainPackage(store: string, pin: PackagePin): string {
  // npm runs in the work folder and is told to pack into it: a relative path would name a folder
  // inside itself
  const storeDir = resolve(store);
  const dir = packageDir(storeDir, pin);
  if (existsSync(join(dir, STAMP)) && readFileSync(join(dir, STAMP), "utf8") === pin.integrity) return dir;
  mkdirSync(storeDir, { recursive: true });
  const work = mkdtempSync(join(storeDir, ".fetch-"));
  try {
    let out: string;
    try {
      out = execFileSync("npm", ["pack", pin.spec, "--json", "--ignore-scripts", "--pack-destination", work], {
        cwd: work,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 256 * 1024 * 1024,
      });
    } catch (e) {
      const stderr = String((e as { stderr?: unknown }).stderr ?? "").split("\n").filter((l) => /error/i.test(l)).join(" ");
      throw new Error(`package ${pin.spec}: npm pack failed: ${stderr || (e as Error).message}`);
    }
    const filename = (JSON.parse(out) as { filename: string }[])[0]?.filename;
    if (!filename) throw new Error(`package ${pin.spec}: npm pack reported no tarball`);
    const tarball = join(work, filename);
    const integrity = "sha512-" + createHash("sha512").update(readFileSync(tarball)).digest("base64");
    if (integrity !== pin.integrity) throw new Error(`package ${pin.spec}: tarball integrity ${integrity} does not match the pinned ${pin.integrity}`);
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked, "--no-same-owner"], { stdio: ["ignore", "ignore", "pipe"] });
    // npm tarballs hold one top folder, usually "package/" but not always
    const top = readdirSync(unpacked);
    if (top.length !== 1) throw new Error(`package ${pin.spec}: expected one top folder in the tarball, found ${top.length}`);
    writeFileSync(join(unpacked, top[0]!, STAMP), pin.integrity);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(unpacked, top[0]!), dir);
    return dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
