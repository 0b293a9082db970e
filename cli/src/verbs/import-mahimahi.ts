import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { importMahimahi } from "@pagepath/profiler";
import type { Verb } from "../verb.js";
import { shownPath } from "../shown-path.js";
import { importBatch, IMPORT_OPTION_HELP, IMPORT_OPTIONS } from "./import-batch.js";

export const importMahimahiCommand: Verb = {
  name: "mahimahi",
  summary: "mm-webrecord folders (one RequestResponse protobuf per file) as recordings",
  usage: `
usage: pagepath import mahimahi DIR... [--page URL] [--out DIR] [--keep-credentials] [--force]

Makes each folder mm-webrecord wrote (one MahimahiProtobufs.RequestResponse per file, from
Mahimahi's protobufs/http_record.proto) a recording under --out. Bodies are decoded as the page
received them (chunking and gzip, deflate or br undone). Mahimahi keeps no timing and does not
say which request was the page, so the import assumes (and lists in manifest.imported):
the page is --page, else the one HTML response no other response names; requests come in the
order of discovery (the document, then what each text response names), 10 ms apart a level;
each hangs off the response that named it (marked inferred); server delays are not measured, so
the replay draws them from its per-type distributions. A file that is not a RequestResponse is
left out with a warning; a folder that cannot be imported is reported at the end.

  --page URL            the page's URL when the folder holds several candidates
${IMPORT_OPTION_HELP}
`,
  paths: { options: ["out"], positionals: true },
  options: { ...IMPORT_OPTIONS, page: { type: "string" } },
  async run(values, positionals) {
    return importBatch("import mahimahi", positionals, values, (dir, keepCredentials) =>
      importMahimahi(readFolder(dir), shownPath(dir), { page: (values.page as string | undefined) ?? null, keepCredentials }),
    );
  },
};

function readFolder(dir: string) {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new Error(`${shownPath(dir)}: cannot read the folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return names
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ name: shownPath(path), bytes: readFileSync(path), mtimeMs: statSync(path).mtimeMs }));
}
