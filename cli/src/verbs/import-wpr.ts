import { readFileSync, statSync } from "node:fs";
import { importWpr } from "@pagepath/profiler";
import type { Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { importBatch, IMPORT_OPTION_HELP, IMPORT_OPTIONS } from "./import-batch.js";

export const importWprCommand: Verb = {
  name: "wpr",
  summary: "Web Page Replay archives (.wprgo) as recordings",
  usage: `
usage: pagepath import wpr FILE.wprgo... [--page URL] [--out DIR] [--keep-credentials] [--force]

Makes each Web Page Replay archive (its Archive as gzip-compressed JSON: Requests by host and
URL, each request and response as raw HTTP/1.1 bytes) a recording under --out, with the protocol
it negotiated per host. Like Mahimahi, WPR keeps no timing and does not name the page: the
import assumes the same (pagepath import mahimahi --help) and lists it in manifest.imported.

  --page URL            the page's URL when the archive holds several candidates
${IMPORT_OPTION_HELP}
`,
  paths: { options: ["out"], positionals: true },
  options: { ...IMPORT_OPTIONS, page: { type: "string" } },
  async run(values, positionals) {
    return importBatch("import wpr", positionals, values, (file, keepCredentials) => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch (e) {
        throw new Error(`${shownPath(file)}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      return importWpr(bytes, shownPath(file), { page: (values.page as string | undefined) ?? null, keepCredentials, fileTimeMs: statSync(file).mtimeMs });
    });
  },
};
