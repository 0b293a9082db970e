import { readFileSync } from "node:fs";
import { checkUrl, parseUrlList, profileBatch, type BatchItemResult } from "@pagepath/profiler";
import { Progress } from "../progress.js";
import { numberOption, UsageError, type Verb } from "../verb.js";
import { PROFILE_OPTIONS, PROFILE_OPTIONS_HELP, profileOptions } from "./profile-options.js";

export const profileVerb: Verb = {
  name: "profile",
  summary: "record page loads in Chromium (network log, trace, lifecycle, response archive)",
  usage: `
usage: pagepath profile <url>... [options]
       pagepath profile --list urls.txt [options]

Loads each URL once in a fresh Chromium (new profile, cold cache) and writes one recording
directory per URL and conditions under --out, named after both (format: docs/formats/recording.md).
A page that fails is recorded as incomplete with the reason; the others go on. Complete recordings
of the same URL under the same conditions already in --out are skipped.

  --list FILE            URLs to profile, one per line (# comments allowed)
  --out DIR              where recordings go (default ./recordings)
  --concurrency N        pages at once, each in its own browser (default 1)
  --force                record again even if a complete recording under these conditions exists
${PROFILE_OPTIONS_HELP}`,
  paths: { options: ["list", "out"] },
  options: {
    list: { type: "string" },
    out: { type: "string", default: "recordings" },
    concurrency: { type: "string" },
    force: { type: "boolean" },
    ...PROFILE_OPTIONS,
  },
  async run(values, positionals) {
    const urls = [...positionals];
    for (const u of urls) {
      const problem = checkUrl(u);
      if (problem) throw new UsageError(problem);
    }
    if (values.list) {
      const file = String(values.list);
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        throw new UsageError(`--list ${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      try {
        urls.push(...parseUrlList(text, file));
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    }
    if (urls.length === 0) throw new UsageError("no URL given (pass URLs or --list FILE)");
    const concurrency = numberOption(values, "concurrency", 1, 1, 64);
    const out = String(values.out);
    const progress = new Progress(urls.length, "profile");
    const results = await profileBatch(
      urls,
      out,
      { ...profileOptions(values), concurrency, resume: values.force !== true },
      (e) => {
        if (e.type === "start") progress.working(e.url);
        else progress.finished(e.result.url, e.result.status === "complete" || e.result.status === "skipped", e.result.status === "skipped" ? "skipped" : "");
      },
    );
    progress.end();
    printSummary(results);
    return results.some((r) => r.status === "incomplete" || r.status === "error") ? 1 : 0;
  },
};

function printSummary(results: BatchItemResult[]): void {
  const count = (s: BatchItemResult["status"]) => results.filter((r) => r.status === s).length;
  const lines = [
    `profiled ${results.length} URL(s): ${count("complete")} complete, ${count("incomplete")} incomplete, ${count("error")} failed, ${count("skipped")} skipped (already recorded)`,
  ];
  for (const r of results) {
    const note = r.status === "complete" || r.status === "skipped" ? "" : `: ${r.reason}`;
    lines.push(`  ${r.status.padEnd(10)} ${r.url} -> ${r.dir}${note}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
}
