import { NeedsRoot } from "@pagepath/runner";
import { helpText, parseVerbArgs, UsageError, type Verb } from "./verb.js";
import { profileVerb } from "./verbs/profile.js";
import { harVerb } from "./verbs/har.js";
import { importVerb } from "./verbs/import.js";
import { exportVerb } from "./verbs/export.js";
import { completionVerb } from "./verbs/completion.js";
import { validateVerb } from "./verbs/validate.js";
import { demoVerb } from "./verbs/demo.js";
import { benchVerb } from "./verbs/bench.js";
import { buildVerb } from "./verbs/build.js";
import { dotVerb } from "./verbs/dot.js";
import { serveVerb } from "./verbs/serve.js";
import { corpusVerb } from "./verbs/corpus.js";
import { viewVerb } from "./verbs/view.js";
import { netVerb } from "./verbs/net.js";
import { replayVerb } from "./verbs/replay.js";
import { traceVerb } from "./verbs/trace.js";
import { accuracyVerb } from "./verbs/accuracy.js";
import { simulateVerb } from "./verbs/simulate.js";
import { workerVerb } from "./verbs/worker.js";
import { experimentVerb } from "./verbs/experiment.js";
import { reproduceVerb } from "./verbs/reproduce.js";
import { analyzeVerb } from "./verbs/analyze.js";
import { lanternVerb } from "./verbs/lantern.js";

const VERBS: Verb[] = [profileVerb, harVerb, importVerb, exportVerb, buildVerb, dotVerb, validateVerb, corpusVerb, viewVerb, serveVerb, netVerb, replayVerb, simulateVerb, accuracyVerb, lanternVerb, experimentVerb, analyzeVerb, workerVerb, reproduceVerb, traceVerb, demoVerb, benchVerb, completionVerb(() => VERBS)];

function overview(): string {
  const width = Math.max(...VERBS.map((v) => v.name.length));
  return [
    "pagepath: record how a browser loads a page, build its dependency graph, replay it over emulated links.",
    "",
    "usage: pagepath <verb> [options]    (pagepath <verb> --help for each verb)",
    "",
    ...VERBS.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    "",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  // `pagepath help VERB [SUBVERB]` is `pagepath VERB [SUBVERB] --help`.
  if (argv[0] === "help" && argv.length > 1) return main([...argv.slice(1), "--help"]);
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(overview());
    return name ? 0 : 2;
  }
  const found = VERBS.find((v) => v.name === name);
  if (!found) {
    process.stderr.write(`pagepath: unknown verb "${name}"\n\n${overview()}`);
    return 2;
  }
  if (found.raw) return found.raw(rest);
  let verb = found;
  if (found.subcommands) {
    const sub = found.subcommands.find((v) => v.name === rest[0]);
    if (!sub) {
      const asked = rest[0] === undefined || rest[0] === "--help" || rest[0] === "-h";
      (asked ? process.stdout : process.stderr).write(`${asked ? "" : `pagepath ${name}: unknown subcommand "${rest[0]}"\n\n`}${helpText(found)}`);
      return asked && rest[0] !== undefined ? 0 : 2;
    }
    verb = { ...sub, name: `${name} ${sub.name}` };
    rest.shift();
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(helpText(verb));
    return 0;
  }
  try {
    const { values, positionals } = parseVerbArgs(verb, rest);
    return await verb.run(values, positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`pagepath ${verb.name}: ${e.message}\n(see pagepath ${verb.name} --help)\n`);
      return 2;
    }
    process.stderr.write(`pagepath ${verb.name}: ${(e as Error).message}\n`);
    // The exit code pagepath net gives for the same refusal.
    return e instanceof NeedsRoot ? 2 : 1;
  }
}
