import { readFileSync } from "node:fs";
import { importHar } from "@pagepath/profiler";
import type { Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { importBatch, IMPORT_OPTION_HELP, IMPORT_OPTIONS } from "./import-batch.js";

export const importHarCommand: Verb = {
  name: "har",
  summary: "HAR files (Chrome, Firefox, WebPageTest) as recordings that build and replay",
  usage: `
usage: pagepath import har FILE.har... [--out DIR] [--keep-credentials] [--force]

Makes each HAR's first page a recording (docs/formats/recording.md) under --out, named as
pagepath profile names its recordings, then \`pagepath build\` and \`pagepath replay\` take it as
one of their own. What the file gives is kept: each request's timing (startedDateTime, timings),
bodies (content.text), Chrome's _initiator, _priority and _resourceType. Where the file is silent
the import says what it assumed (manifest.imported.assumptions): a request naming no initiator
hangs off the response that referenced its URL before it was requested (else off the document),
marked inferred; a response with its size but not its bytes is served as filler of that size; a
HAR has no trace, so parsing and script times are zero in the graph. Credentials (Cookie,
Authorization, ...) are redacted as profile redacts them. A file that cannot be imported is
reported at the end; the others are imported.

${IMPORT_OPTION_HELP}
`,
  paths: { options: ["out"], positionals: true },
  options: IMPORT_OPTIONS,
  async run(values, positionals) {
    return importBatch("import har", positionals, values, (file, keepCredentials) => importHar(readHar(file), shownPath(file), { keepCredentials }));
  },
};

function readHar(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new Error(`${shownPath(file)}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    // A HAR saved by some tools starts with a byte-order mark.
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new Error(`${shownPath(file)}: not JSON: ${(e as Error).message}`);
  }
}
