import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PARAMS, generateSiteModel, mergeParams, writeGeneratedSite, type GeneratorParams } from "@pagepath/corpus";
import { Progress } from "../progress.js";
import { numberOption, UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";

export const corpusGenerateCommand: Verb = {
  name: "generate",
  summary: "write synthetic pages whose structure follows the thesis's corpus statistics",
  usage: `
usage: pagepath corpus generate [--count N] [--seed S] [--out DIR] [--params FILE.json]

Writes N site directories <out>/gen-<seed>-<i>/ (i = 1..N), each a page drawn from the thesis's
statistics (section 4.2: resources per page, resource sizes by type, domains, shards, CDNs, ads,
iframes; section 3.4.1: server delays), with scripts that insert scripts, timer chains, XHR/fetch
and CSS fonts and backgrounds. Serve one with "pagepath serve <dir>" or profile it like any site.
The same seed and parameters give the same pages, byte for byte.

  --count N        pages to write (default 10)
  --seed S         letters, digits, "." "_" "-" (default 1)
  --out DIR        where the site directories go (default out/generated)
  --params FILE    JSON with the parameters to change, merged over the defaults
  --print-params   print the default parameters as JSON (a starting point for --params) and exit
`,
  paths: { options: ["out", "params"] },
  options: {
    count: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    params: { type: "string" },
    "print-params": { type: "boolean" },
  },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}": every setting is an option`);
    if (values["print-params"]) {
      process.stdout.write(JSON.stringify(DEFAULT_PARAMS, null, 2) + "\n");
      return 0;
    }
    const count = numberOption(values, "count", 10, 1, 100_000);
    if (!Number.isInteger(count)) throw new UsageError(`--count "${count}": expected a whole number`);
    const seed = String(values.seed ?? "1");
    if (!/^[A-Za-z0-9._-]+$/.test(seed)) throw new UsageError(`--seed "${seed}": use letters, digits, ".", "_" or "-" (it names the directories)`);
    const out = String(values.out ?? join("out", "generated"));
    const params = values.params === undefined ? DEFAULT_PARAMS : readParams(String(values.params));

    const progress = new Progress(count, "generate");
    const rows: { dir: string; resources: number; bytes: number; domains: number }[] = [];
    for (let i = 1; i <= count; i++) {
      const dir = join(out, `gen-${seed}-${i}`);
      progress.working(shownPath(dir));
      const model = generateSiteModel(params, seed, i);
      writeGeneratedSite(model, dir);
      const row = { dir, resources: model.resources.length, bytes: model.resources.reduce((s, r) => s + r.bytes, 0), domains: model.domains.length };
      rows.push(row);
      progress.finished(shownPath(dir), true, `${row.resources} resources`);
    }
    progress.end();

    const lines = rows.map((r) => `${shownPath(r.dir)}  ${r.resources} resources  ${mb(r.bytes)}  ${r.domains} domains`);
    const median = (f: (r: (typeof rows)[number]) => number) => {
      const v = rows.map(f).sort((a, b) => a - b);
      return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
    };
    lines.push(
      `${rows.length} pages in ${shownPath(out)}; median per page: ${median((r) => r.resources)} resources, ${mb(median((r) => r.bytes))}, ${median((r) => r.domains)} domains`,
    );
    process.stdout.write(lines.join("\n") + "\n");
    return 0;
  },
};

function readParams(file: string): GeneratorParams {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: cannot read parameters: ${(e as Error).message}`);
  }
  try {
    return mergeParams(raw);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}
