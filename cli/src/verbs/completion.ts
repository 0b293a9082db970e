import { UsageError, type Verb } from "../verb.js";

/**
 * `pagepath completion bash|zsh`: a completion script made from the verbs' own option lists, so it
 * never lags behind them. zsh runs the bash one through its bashcompinit.
 */
export function completionVerb(verbs: () => Verb[]): Verb {
  return {
    name: "completion",
    summary: "shell completion for bash or zsh: source <(pagepath completion bash)",
    usage: `
usage: pagepath completion bash|zsh

Prints a completion script for verbs, subcommands and options. Load it in the current shell:
  bash: source <(./pagepath completion bash)       (or save it to ~/.local/share/bash-completion/completions/pagepath)
  zsh:  source <(./pagepath completion zsh)
It completes both "pagepath" and "./pagepath"; after an option it offers file names.
`,
    options: {},
    async run(_values, positionals) {
      const shell = positionals[0];
      if (positionals.length !== 1 || (shell !== "bash" && shell !== "zsh")) throw new UsageError("expected bash or zsh");
      const script = bashScript(verbs());
      process.stdout.write(shell === "bash" ? script : `autoload -U +X bashcompinit && bashcompinit\n${script}`);
      return 0;
    },
  };
}

/** The words a verb's options are spelled with. */
function optionWords(v: Verb): string {
  return [...Object.keys(v.options).map((o) => `--${o}`), "--help"].join(" ");
}

/** Verbs that hand their arguments to a Rust binary list its subcommands here. */
const RAW_SUBCOMMANDS: Record<string, string[]> = { net: ["up", "down", "reconfigure", "exec", "status", "ping", "check", "shell", "plot", "check-root"] };

function bashScript(verbs: Verb[]): string {
  const cases = verbs.map((v) => {
    const subs = v.subcommands?.map((s) => s.name) ?? RAW_SUBCOMMANDS[v.name];
    if (!subs) return `    ${v.name}) opts="${optionWords(v)}" ;;`;
    const inner = (v.subcommands ?? []).map((s) => `        ${s.name}) opts="${optionWords(s)}" ;;`).join("\n");
    return [
      `    ${v.name})`,
      `      if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "${subs.join(" ")}" -- "$cur")); return; fi`,
      `      case "\${COMP_WORDS[2]}" in`,
      inner,
      `        *) opts="--help" ;;`,
      `      esac ;;`,
    ].filter(Boolean).join("\n");
  });
  return `# pagepath completion for bash (pagepath completion bash)
_pagepath() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${verbs.map((v) => v.name).join(" ")} help" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _pagepath pagepath ./pagepath
`;
}
