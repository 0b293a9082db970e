import { buildCorpus, corpusCatalogue, DEFAULT_GENERATED } from "@pagepath/corpus";
import { Progress } from "../progress.js";
import { numberOption, UsageError, type Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { passesOption } from "./profile-options.js";

export const DEFAULT_DATA = "corpus-data";
const KINDS = ["fixture", "realistic", "generated"];

export const corpusBuildCommand: Verb = {
  name: "build",
  summary: "(re)create the corpus: generate, serve, profile in Chromium and build every site's graph",
  usage: `
usage: pagepath corpus build [--data DIR] [--generated N] [--kind KIND]... [--only NAME]... [--passes 1|2] [--force]

Makes every corpus site into a recording (DIR/recordings/NAME) and a dependency graph
(DIR/graphs/NAME.json): the bundled fixture pages; the realistic sites, whose content comes from
registry packages pinned in corpus/realistic/*/recipe.json (fetched with npm into DIR/packages/,
checked against their integrity, assembled into DIR/sites/); and N synthetic sites generated from
the default parameters with the corpus's fixed seed (into DIR/sites/). Each site is served on
127.0.0.1 under its own host names over HTTPS/HTTP2 and profiled in a fresh Chromium. Sites already
built are skipped unless --force; a failing site is reported and the others go on.
  --data DIR        where the corpus goes (default ${DEFAULT_DATA}; regenerated, not committed)
  --generated N     synthetic sites to include (default ${DEFAULT_GENERATED})
  --kind KIND       build only sites of this kind: fixture, realistic or generated (repeatable)
  --only NAME       build only this site (repeatable; see pagepath corpus list)
  --quiet-ms MS     quiet period after load before a recording stops (default 2500)
  --passes 1|2      2: time each site from a load traced alone and take its content from a second
                    load, as pagepath profile --passes 2 (default 1)
  --force           rebuild sites that are already built
`,
  paths: { options: ["data"] },
  options: {
    data: { type: "string", default: DEFAULT_DATA },
    generated: { type: "string" },
    kind: { type: "string", multiple: true },
    only: { type: "string", multiple: true },
    "quiet-ms": { type: "string" },
    passes: { type: "string" },
    force: { type: "boolean" },
  },
  async run(values, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const data = String(values.data);
    let sites = corpusCatalogue(data, numberOption(values, "generated", DEFAULT_GENERATED, 0, 10_000));
    const only = (values.only as string[] | undefined) ?? [];
    for (const name of only) if (!sites.some((s) => s.name === name)) throw new UsageError(`--only ${name}: no such corpus site (see pagepath corpus list)`);
    if (only.length) sites = sites.filter((s) => only.includes(s.name));
    const kinds = (values.kind as string[] | undefined) ?? [];
    for (const k of kinds) if (!KINDS.includes(k)) throw new UsageError(`--kind ${k}: must be one of ${KINDS.join(", ")}`);
    if (kinds.length) sites = sites.filter((s) => kinds.includes(s.kind));
    const progress = new Progress(sites.length, "corpus");
    const opts = { force: values.force === true, quietMs: numberOption(values, "quiet-ms", 2500, 0, 60_000), passes: passesOption(values) };
    const results = await buildCorpus(sites, data, opts, (e) => {
      if (e.type === "start") progress.working(e.site.name);
      else progress.finished(e.result.site.name, e.result.status !== "failed", e.result.status === "skipped" ? "skipped" : "");
    });
    progress.end();
    const failed = results.filter((r) => r.status === "failed");
    const lines = [`corpus in ${shownPath(data)}: ${results.filter((r) => r.status === "built").length} built, ${results.filter((r) => r.status === "skipped").length} already there, ${failed.length} failed`];
    for (const r of results) lines.push(`  ${r.status.padEnd(8)} ${r.site.name}: ${r.message}`);
    process.stdout.write(lines.join("\n") + "\n");
    return failed.length ? 1 : 0;
  },
};
