import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import {
  DEFAULT_PARAMS,
  generateSiteModel,
  mergeParams,
  readSiteConfig,
  serveSite,
  validateParams,
  writeGeneratedSite,
  type SiteModel,
} from "@pagepath/corpus";
import { recordPage } from "@pagepath/profiler";
import { corpusGenerateCommand } from "@pagepath/cli/dist/src/verbs/corpus-generate.js";
import { optionsFor, tempDir } from "./fixture-profile.js";

/** Thesis section 4.2.1-4.2.2 medians: resources per page, bytes per resource, domains per site. */
const THESIS = { resourcesPerPage: 100, resourceBytes: 6000, domainsPerSite: 20 };

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
}

/** Every file under dir, by relative path, with its SHA-256. */
function digest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash("sha256").update(readFileSync(p)).digest("hex"));
    }
  };
  walk(dir);
  return out;
}

describe("page generator", () => {
  it("gives the same model and the same files for the same seed, and different pages for different seeds", () => {
    const a = generateSiteModel(DEFAULT_PARAMS, "same", 3);
    assert.deepEqual(generateSiteModel(DEFAULT_PARAMS, "same", 3), a);
    const root = tempDir("generator-determinism");
    writeGeneratedSite(a, join(root, "a"));
    writeGeneratedSite(generateSiteModel(DEFAULT_PARAMS, "same", 3), join(root, "b"));
    assert.deepEqual(digest(join(root, "a")), digest(join(root, "b")));
    assert.notDeepEqual(generateSiteModel(DEFAULT_PARAMS, "other", 3).resources, a.resources);
    assert.notDeepEqual(generateSiteModel(DEFAULT_PARAMS, "same", 4).resources, a.resources);
  });

  it("writes every resource at the size the model chose, on hosts under .test", () => {
    const model = generateSiteModel(DEFAULT_PARAMS, "sizes", 1);
    const dir = join(tempDir("generator-sizes"), "site");
    writeGeneratedSite(model, dir);
    for (const r of model.resources) {
      assert.ok(r.host.endsWith(".test"), r.host);
      assert.equal(statSync(join(dir, "hosts", r.host, r.path)).size, r.bytes, r.url);
    }
    const used = new Set(model.resources.map((r) => r.host));
    for (const d of model.domains) assert.ok(used.has(d.host), `${d.host} serves nothing`);
  });

  it("reproduces the thesis's medians within 20% over 200 pages", () => {
    const models: SiteModel[] = Array.from({ length: 200 }, (_, i) => generateSiteModel(DEFAULT_PARAMS, "medians", i));
    const measured = {
      resourcesPerPage: median(models.map((m) => m.resources.length)),
      resourceBytes: median(models.flatMap((m) => m.resources.map((r) => r.bytes))),
      domainsPerSite: median(models.map((m) => m.domains.length)),
    };
    console.log(`generated medians over 200 pages: ${JSON.stringify(measured)} (thesis ${JSON.stringify(THESIS)})`);
    for (const key of Object.keys(THESIS) as (keyof typeof THESIS)[]) {
      const off = Math.abs(measured[key] - THESIS[key]) / THESIS[key];
      assert.ok(off <= 0.2, `${key}: generated median ${measured[key]}, thesis ${THESIS[key]} (${Math.round(off * 100)}% off)`);
    }
  });

  it("refuses impossible parameters, naming the parameter", () => {
    const bad: [unknown, RegExp][] = [
      [{ domains: { count: { max: 40 } }, resources: { max: 30, median: 20 } }, /^domains\.count\.max \(40\) is larger than resources\.max \(30\)/],
      [{ sizes: { image: { median: -5 } } }, /^sizes\.image\.median \(-5\) must not be negative/],
      [{ typeShare: { image: 0.9 } }, /^typeShare shares sum to 1\.4, not 1/],
      [{ iframes: { count: { min: 10, max: 5 } } }, /^iframes\.count\.min \(10\) is larger than iframes\.count\.max \(5\)/],
      [{ cdn: { byteShare: 1.5 } }, /^cdn\.byteShare \(1\.5\) is a share/],
      [{ sizes: { image: { min: 10 } } }, /^sizes\.image\.min \(10\) is below 128 bytes/],
      [{ timers: { delay: 5 } }, /^timers\.delay is not a parameter/],
      [{ resources: { median: "many" } }, /^resources\.median \("many"\) must be a number/],
    ];
    for (const [overrides, message] of bad) assert.throws(() => mergeParams(overrides), { message }, JSON.stringify(overrides));
    assert.throws(() => validateParams({ resources: DEFAULT_PARAMS.resources }), { message: /^typeShare is missing/ });
    assert.deepEqual(mergeParams({}), DEFAULT_PARAMS);
  });

  it("pagepath corpus generate writes gen-<seed>-<i> site directories from parameters merged over the defaults", async () => {
    const root = tempDir("generator-cli");
    const params = join(root, "params.json");
    writeFileSync(params, JSON.stringify({ resources: { median: 40 } }));
    assert.equal(await corpusGenerateCommand.run({ count: "2", seed: "cli", out: root, params }, []), 0);
    const expected = generateSiteModel(mergeParams({ resources: { median: 40 } }), "cli", 2);
    assert.equal(readSiteConfig(join(root, "gen-cli-2")).entry, expected.entry);
    assert.equal(readdirSync(root).filter((d) => d.startsWith("gen-cli-")).length, 2);
  });

  it("serves a generated page that Chromium loads completely, fetching at least 90% of the model's resources", async () => {
    const model = generateSiteModel(DEFAULT_PARAMS, "chromium", 4);
    const dir = join(tempDir("generator-chromium"), "site");
    writeGeneratedSite(model, dir);
    const site = await serveSite(dir);
    try {
      // quiet period longer than the longest timer, so timer chains are not cut off
      const quietMs = DEFAULT_PARAMS.timers.delayMs.max + 1000;
      const { recording } = await recordPage(model.entry, optionsFor(site, { stop: { quietMs, capMs: 60_000 } }));
      assert.equal(recording.manifest.status, "complete", String(recording.manifest.reason));
      const fetched = new Set(recording.archive.filter((e) => e.response?.status === 200).map((e) => e.url));
      const missing = model.resources.filter((r) => !fetched.has(r.url));
      const share = 1 - missing.length / model.resources.length;
      console.log(`Chromium fetched ${model.resources.length - missing.length} of ${model.resources.length} modelled resources`);
      assert.ok(share >= 0.9, `fetched ${Math.round(share * 100)}%; missing: ${missing.map((r) => `${r.url} (${r.request.kind})`).join(", ")}`);
    } finally {
      await site.close();
    }
  });
});
