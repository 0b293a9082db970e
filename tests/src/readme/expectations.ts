/**
 * What the README test knows that the documents do not say: which commands it cannot run (and
 * why), how it scales the long ones down through their own flags, and what each command must
 * print. What a command writes comes from the document itself (its --out and the paths its
 * comment names), see writtenPaths.
 */

/** Commands skipped by name, each with its reason; the documents mark the same ones `[...]`. */
export const SKIPPED: { prefix: string; why: string }[] = [
  { prefix: "bash scripts/install.sh", why: "CI runs it on a clean clone before the tests (.ci/run)" },
  { prefix: "npm test", why: "the test suite this test is part of" },
  { prefix: "./pagepath profile https://example.com/ --out recordings", why: "a live website" },
  { prefix: "./pagepath profile --list urls.txt", why: "a list of live websites" },
  { prefix: "./pagepath profile https://example.com/ --cpu-throttle", why: "a live website" },
  { prefix: "redis-server --bind 10.0.0.1", why: "another machine's address" },
  { prefix: "pagepath experiment plans/h2-vs-h3.plan.json", why: "another machine and a shared folder" },
  { prefix: 'pagepath worker --redis "redis://:$PW@10.0.0.1', why: "another machine" },
];

/** The marks a document puts on a command that cannot run here. */
export const SKIP_MARK = /\[(live website|another machine)\]/;

/** The corpus sites the scaled-down commands use: one realistic and one generated, as the plans name. */
export const REALISTIC_SITE = "real-agency";
export const GENERATED_SITE = "gen-pagepath-1";

/** Sets a flag's value, replacing the one given or appending it. */
export function setFlag(text: string, flag: string, value: string): string {
  const re = new RegExp(`(^|\\s)${flag}(\\s+|=)\\S+`);
  return re.test(text) ? text.replace(re, `$1${flag} ${value}`) : `${text} ${flag} ${value}`;
}

/** The long commands, made smaller through flags they already take. */
export function scaledDown(text: string): string {
  if (/^\.\/pagepath corpus build( --kind \S+)*$/.test(text)) {
    const kinds = [...text.matchAll(/--kind (\S+)/g)].map((m) => m[1]);
    const only = kinds.length === 0 ? [REALISTIC_SITE, GENERATED_SITE] : kinds.includes("generated") ? [REALISTIC_SITE, GENERATED_SITE] : [REALISTIC_SITE];
    return `${text} ${only.map((s) => `--only ${s}`).join(" ")}`;
  }
  if (/^\.\/pagepath accuracy\b/.test(text)) return setFlag(setFlag(setFlag(text, "--sites", REALISTIC_SITE), "--runs", "1"), "--conditions", "10:40");
  if (/^\.\/pagepath reproduce\b/.test(text)) return setFlag(setFlag(setFlag(text, "--sites", REALISTIC_SITE), "--rates", "10"), "--rtts", "40");
  return text;
}

export interface OutputCheck {
  match: RegExp;
  /** A command that runs until stopped: ready once its output matches; stopped when its block ends. */
  ready?: RegExp;
  /** What its standard output must match (for a long-running one, by the time it is ready). */
  stdout?: (out: string) => string | null;
}

const json = (out: string): Record<string, any> => JSON.parse(out.trim().split("\n").pop()!);

export const OUTPUT_CHECKS: OutputCheck[] = [
  { match: /^\.\/pagepath view /, ready: /open http:\/\/\S+/ },
  { match: /^\.\/pagepath replay serve /, ready: /"ready":true/ },
  {
    match: /pagepath-netprobe rtt /,
    stdout: (out) => {
      const r = json(out);
      if (!(r.received > 0)) return `no echo came back: ${out}`;
      // the README says about 60 ms: 2 x 30 ms of delay and a little serialisation at the trace's rates
      return r.rttMs.p50 >= 58 && r.rttMs.p50 < 90 ? null : `median RTT ${r.rttMs.p50} ms, the README says about 60`;
    },
  },
  { match: /--dump-dom /, stdout: (out) => (/<html/i.test(out) && /fixture/i.test(out) ? null : `no page came back: ${out.slice(0, 300)}`) },
  { match: /^\.\/pagepath net status/, stdout: (out) => (/^lte: up/m.test(out) ? null : `lte is not listed as up: ${out}`) },
  { match: /^\.\/pagepath net shell /, stdout: (out) => (/^the host is 10\.\d+\.\d+\.\d+$/m.test(out) ? null : `no $MAHIMAHI_BASE: ${out}`) },
  { match: /^\.\/pagepath corpus list/, stdout: (out) => (new RegExp(`^${REALISTIC_SITE}\\s+realistic\\s+(?!-)`, "m").test(out) ? null : `${REALISTIC_SITE} is not listed as recorded: ${out}`) },
  {
    match: /^\.\/pagepath validate /,
    stdout: (out) => {
      const lines = out.trim().split("\n");
      return lines.length >= 4 && lines.every((l) => l.startsWith("ok ")) ? null : `not every file validates: ${out}`;
    },
  },
  { match: /^\.\/pagepath replay \S+\.json /, stdout: (out) => (/^run result: runs\//m.test(out) && /^ok\b/m.test(out) ? null : `no ok run result under runs/: ${out}`) },
  { match: /^(\.\/)?pagepath experiment /, stdout: (out) => (/ 0 failed/.test(out) ? null : `runs failed: ${out}`) },
  {
    match: /^\.\/pagepath lantern /,
    stdout: (out) => {
      const p = JSON.parse(out);
      return p.fcpMs > 0 && p.lcpMs >= p.fcpMs && p.interactiveMs > 0 ? null : `no Lantern predictions: ${out.slice(0, 300)}`;
    },
  },
];

/**
 * The files and folders a command says it writes: its --out, -o and --log-dir, and the paths its
 * comment names (`-> stats/`, `: graphs/real-agency.svg`). `{a,b}` stands for both; `<time>` for
 * any one name; a path with `...` is only an illustration.
 */
export function writtenPaths(text: string, comment: string): string[] {
  const paths: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)(?:--out|-o|--log-dir)(?:\s+|=)(\S+)/g)) paths.push(m[1]!);
  for (const m of comment.matchAll(/(?<![\w/.:-])([\w.-]+(?:\/[\w.<>{},-]*)+)/g)) {
    const p = m[1]!.replace(/[,.;:]+$/, "");
    if (p.includes("...") || p.startsWith("10.")) continue;
    const brace = /\{([^}]+)\}/.exec(p);
    if (brace) for (const alt of brace[1]!.split(",")) paths.push(p.replace(brace[0], alt));
    else paths.push(p);
  }
  return paths;
}
