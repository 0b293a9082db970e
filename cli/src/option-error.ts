import type { ParseArgsConfig } from "node:util";

/**
 * node:util's parseArgs error, said for this command line: an unknown option gets the known one it
 * most likely meant, in place of parseArgs's advice about positionals after "--" (with its
 * unbalanced quote), which never fits a misspelled flag.
 */
export function optionErrorMessage(e: Error & { code?: string }, options: NonNullable<ParseArgsConfig["options"]>): string {
  if (e.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return e.message;
  const given = /'([^']+)'/.exec(e.message)?.[1] ?? "";
  const name = given.replace(/^-+/, "").split("=")[0]!;
  const known = Object.keys(options);
  const closest = known
    .map((k) => ({ k, d: editDistance(name, k) }))
    .filter(({ k, d }) => d <= (name.length <= 3 ? 1 : 2) || (name.length >= 3 && k.startsWith(name)))
    .sort((a, b) => a.d - b.d)[0];
  return `unknown option ${given}${closest ? ` (did you mean --${closest.k}?)` : ""}`;
}

/** Levenshtein distance, with a swap of neighbours counted as one edit (the commonest typo). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
