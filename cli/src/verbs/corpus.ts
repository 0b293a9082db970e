import type { Verb } from "../verb.js";
import { corpusBuildCommand } from "./corpus-build.js";
import { corpusGenerateCommand } from "./corpus-generate.js";
import { corpusListCommand } from "./corpus-list.js";
import { corpusStatsCommand } from "./corpus-stats.js";

const SUBCOMMANDS: Verb[] = [corpusBuildCommand, corpusListCommand, corpusGenerateCommand, corpusStatsCommand];

export const corpusVerb: Verb = {
  name: "corpus",
  summary: "the project's own corpus: build it, list it, generate synthetic sites, characterise recordings",
  usage: `
usage: pagepath corpus <subcommand> [options]    (pagepath corpus <subcommand> --help)

${SUBCOMMANDS.map((v) => `  ${v.name.padEnd(10)} ${v.summary}`).join("\n")}
`,
  options: {},
  subcommands: SUBCOMMANDS,
  async run() {
    return 2;
  },
};
