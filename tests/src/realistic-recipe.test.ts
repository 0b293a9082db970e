import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { assembleRealisticSite, findSiteFile, hostDelayMs, obtainPackage, packageDir, readRecipe, readSiteConfig } from "@pagepath/corpus";
import { tempDir } from "./fixture-profile.js";

const work = tempDir("recipe");
after(() => rmSync(work, { recursive: true, force: true }));

const PIN = { spec: "demo-pkg@1.0.0", integrity: "sha512-AAAA" };
const GOOD = {
  description: "test",
  kind: "page",
  packages: { app: PIN },
  entry: "https://www.demo.test/index.html",
  hosts: { "www.demo.test": { role: "main origin" }, "static.demo.test": { role: "CDN", delayMs: [2, 12] } },
  mounts: [
    { host: "www.demo.test", at: "/", from: "app:/site/" },
    { host: "static.demo.test", at: "/lib/", from: "app:/site/lib/" },
  ],
  rewrite: [{ url: "https://www.demo.test/index.html", replace: [['"lib/', '"https://static.demo.test/lib/']] }],
  routes: {},
};

function recipeDir(name: string, recipe: unknown): string {
  const dir = join(work, "recipes", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "recipe.json"), JSON.stringify(recipe));
  return dir;
}

/** A package store holding demo-pkg as if fetched and checked already, so no registry is needed. */
function store(): string {
  const s = join(work, "store");
  const dir = packageDir(s, PIN);
  mkdirSync(join(dir, "site", "lib"), { recursive: true });
  writeFileSync(join(dir, ".pagepath-integrity"), PIN.integrity);
  writeFileSync(join(dir, "site", "index.html"), '<script src="lib/app.js"></script><link href="lib/app.css">');
  writeFileSync(join(dir, "site", "lib", "app.js"), "console.log(1)");
  writeFileSync(join(dir, "site", "lib", "app.css"), "body{}");
  writeFileSync(join(dir, "secret.txt"), "outside the mounted folder");
  return s;
}

describe("realistic-site recipes", () => {
  it("refuse bad recipes with the file and the field", () => {
    const cases: [string, unknown, RegExp][] = [
      ["no-entry", { ...GOOD, entry: undefined }, /recipe\.json: \/entry: is missing/],
      ["foreign-entry", { ...GOOD, entry: "https://elsewhere.test/" }, /\/entry: must be a URL on one of the recipe's hosts/],
      ["range", { ...GOOD, packages: { app: { spec: "demo-pkg@^1.0.0", integrity: "sha512-x" } } }, /\/packages\/app\/spec: must be name@exact-version, not "demo-pkg@\^1\.0\.0"/],
      ["no-integrity", { ...GOOD, packages: { app: { spec: "demo-pkg@1.0.0" } } }, /\/packages\/app\/integrity: is missing/],
      ["alias", { ...GOOD, mounts: [{ host: "www.demo.test", at: "/", from: "other:/" }] }, /\/mounts\/0\/from: must be a folder inside one of the recipe's packages/],
      ["climb", { ...GOOD, mounts: [{ host: "www.demo.test", at: "/", from: "app:/../../" }] }, /\/mounts\/0\/from: must be a folder inside one of the recipe's packages/],
      ["at", { ...GOOD, mounts: [{ host: "www.demo.test", at: "lib", from: "app:/" }] }, /\/mounts\/0\/at: must be a path starting and ending with "\/"/],
      ["pairs", { ...GOOD, rewrite: [{ url: "https://www.demo.test/x", replace: [["only-one"]] }] }, /\/rewrite\/0\/replace\/0: must have at least 2 entries/],
    ];
    for (const [name, recipe, message] of cases) {
      const dir = recipeDir(name, recipe);
      assert.throws(() => readRecipe(dir), (e: Error) => e.message.includes(join(dir, "recipe.json")) && message.test(e.message), name);
    }
  });

  it("assemble into a site that serves mounted package folders, rewritten files first", () => {
    const site = join(work, "sites", "good");
    const entry = assembleRealisticSite(recipeDir("good", GOOD), store(), site);
    assert.equal(entry, GOOD.entry);
    const config = readSiteConfig(site);
    const index = findSiteFile(site, config, "www.demo.test", "/index.html")!;
    assert.match(readFileSync(index, "utf8"), /src="https:\/\/static\.demo\.test\/lib\/app\.js"/);
    assert.equal(findSiteFile(site, config, "www.demo.test", "/"), index, "a folder URL serves its index.html");
    assert.equal(readFileSync(findSiteFile(site, config, "static.demo.test", "/lib/app.js")!, "utf8"), "console.log(1)");
    assert.equal(findSiteFile(site, config, "static.demo.test", "/index.html"), undefined, "only the mounted folder");
    assert.equal(findSiteFile(site, config, "static.demo.test", "/lib/../../secret.txt"), undefined, "no climbing out of a mount");
    assert.equal(findSiteFile(site, config, "www.demo.test", "/../secret.txt"), undefined);
  });

  it("fail to assemble when a replacement no longer matches its file, naming both", () => {
    const recipe = { ...GOOD, rewrite: [{ url: "https://www.demo.test/index.html", replace: [['"vendor/', '"https://x/']] }] };
    const dir = recipeDir("stale", recipe);
    assert.throws(() => assembleRealisticSite(dir, store(), join(work, "sites", "stale")), /recipe\.json: rewrite\[0\]: ""vendor\/" does not occur in https:\/\/www\.demo\.test\/index\.html/);
  });

  it("refuse a package whose tarball does not match its pinned integrity", () => {
    const pin = { spec: "@fontsource/nunito@5.3.0", integrity: "sha512-bm90IHRoZSByaWdodCBoYXNo" };
    assert.throws(() => obtainPackage(join(work, "store2"), pin), /package @fontsource\/nunito@5\.3\.0: tarball integrity sha512-\S+ does not match the pinned sha512-bm90/);
  });
});

describe("host server delays", () => {
  it("are fixed per path, inside the host's range, and spread over it", () => {
    const host = { role: "CDN", delayMs: [2, 40] as [number, number] };
    const delays = Array.from({ length: 200 }, (_, i) => hostDelayMs(host, `/img/${i}.png`));
    assert.deepEqual(delays, Array.from({ length: 200 }, (_, i) => hostDelayMs(host, `/img/${i}.png`)));
    assert.ok(delays.every((d) => d >= 2 && d <= 40));
    assert.ok(new Set(delays).size > 20, `${new Set(delays).size} distinct delays`);
    assert.equal(hostDelayMs({ role: "x", delayMs: 7 }, "/a"), 7);
    assert.equal(hostDelayMs({ role: "x" }, "/a"), 0);
  });
});
