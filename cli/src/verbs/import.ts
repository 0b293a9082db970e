import type { Verb } from "../verb.js";
import { importHarCommand } from "./import-har.js";
import { importMahimahiCommand } from "./import-mahimahi.js";
import { importWprCommand } from "./import-wpr.js";

const SUBCOMMANDS: Verb[] = [importHarCommand, importMahimahiCommand, importWprCommand];

export const importVerb: Verb = {
  name: "import",
  summary: "recordings from other tools' files (HAR, Mahimahi, Web Page Replay), to build and replay like pagepath's own",
  usage: `
usage: pagepath import <format> FILE... [options]    (pagepath import <format> --help)

${SUBCOMMANDS.map((v) => `  ${v.name.padEnd(10)} ${v.summary}`).join("\n")}
`,
  options: {},
  subcommands: SUBCOMMANDS,
  async run() {
    return 2;
  },
};
