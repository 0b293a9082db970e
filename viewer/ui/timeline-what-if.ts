/**
 * The timeline's what-if: the page simulated in virtual time under the network the controls set
 * (GET /api/what-if, pagepath simulate), drawn as a run beside the one shown before. A what-if is
 * keyed by its settings, so the URL keeps it and reopening it simulates it again.
 */
import type { GraphRuns, ReplayedRun } from "../src/server/api.js";
import { fetchJson } from "./fetch-json.js";
import { escapeHtml } from "./format.js";
import { go, type ViewState } from "./state.js";

const PREFIX = "what-if?";
/** The multipath QUIC schedulers a what-if can run, and the default: fetched once. */
interface Schedulers {
  default: string;
  names: string[];
}
let schedulers: Promise<Schedulers> | undefined;
export function whatIfSchedulers(): Promise<Schedulers> {
  schedulers ??= fetchJson<Schedulers>("/api/what-if/schedulers");
  return schedulers;
}

export const isWhatIf = (key: string | null): key is string => key?.startsWith(PREFIX) ?? false;

/**
 * What-ifs simulated in this page, by graph and key: the simulator gives a key the same run each
 * time, so the one shown beside a new what-if is not simulated again.
 */
const simulatedRuns = new Map<string, Promise<ReplayedRun>>();

/** The runs, with the what-ifs the view names simulated and added; one that fails says why. */
export async function withWhatIfs(all: GraphRuns, file: string, state: ViewState): Promise<GraphRuns> {
  const wanted = [state.run, state.vs].filter((k): k is string => isWhatIf(k) && !all.runs.some((r) => r.key === k));
  const problems = [...all.problems];
  const simulate = (key: string): Promise<ReplayedRun> => {
    const id = `${file}\0${key}`;
    let run = simulatedRuns.get(id);
    if (!run) {
      run = fetchJson<ReplayedRun>(`/api/what-if?file=${encodeURIComponent(file)}&${key.slice(PREFIX.length)}`);
      simulatedRuns.set(id, run);
      run.catch(() => simulatedRuns.delete(id));
    }
    return run;
  };
  const simulated = await Promise.all(
    wanted.map((key) =>
      simulate(key).catch((e: Error) => {
        problems.push(`what-if ${key.slice(PREFIX.length)}: ${e.message}`);
        return null;
      }),
    ),
  );
  return { ...all, runs: [...all.runs, ...simulated.filter((r): r is ReplayedRun => r !== null)], problems };
}

/** The controls, set to the what-if shown (or the defaults). */
export function whatIfControls(state: ViewState, choices: Schedulers): string {
  const now = new URLSearchParams(isWhatIf(state.run) ? state.run.slice(PREFIX.length) : "");
  const value = (name: string, fallback: string) => escapeHtml(now.get(name) ?? fallback);
  const paths = value("paths", "1");
  const protocol = now.get("protocol") ?? "h3";
  const scheduler = now.get("scheduler") ?? choices.default;
  const options = choices.names.map((s) => `<option${s === scheduler ? " selected" : ""}>${s}</option>`).join("");
  return (
    `<form id="what-if" class="what-if"><b>what if</b> ` +
    `<label>Mbit/s <input name="rate" type="number" min="0.05" max="10000" step="any" value="${value("rate", "10")}" style="width:5em"></label> ` +
    `<label>RTT ms <input name="rtt" type="number" min="0" max="5000" step="any" value="${value("rtt", "40")}" style="width:4.5em"></label> ` +
    `<label>loss <input name="loss" type="number" min="0" max="0.5" step="any" value="${value("loss", "0")}" style="width:4em"></label> ` +
    `<label>protocol <select name="protocol">${["h3", "h2", "h1"].map((p) => `<option${p === protocol ? " selected" : ""}>${p}</option>`).join("")}</select></label> ` +
    `<label>paths <select name="paths">${["1", "2"].map((p) => `<option${p === paths ? " selected" : ""}>${p}</option>`).join("")}</select></label> ` +
    `<label>scheduler <select name="scheduler">${options}</select></label> ` +
    `<button type="submit">simulate</button> <span class="note">in virtual time; h2 and h1 over TCP on one path (docs/simulator.md)</span></form>`
  );
}

/** Submitting shows the what-if as run A, beside the run shown before it as run B. */
export function wireWhatIf(main: HTMLElement, state: ViewState): void {
  main.querySelector<HTMLFormElement>("#what-if")?.addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const q = new URLSearchParams();
    for (const name of ["rate", "rtt", "loss", "paths"]) q.set(name, String(form.get(name)));
    if (form.get("protocol") !== "h3") q.set("protocol", String(form.get("protocol")));
    if (q.get("paths") !== "1") q.set("scheduler", String(form.get("scheduler")));
    const key = PREFIX + q.toString();
    go({ run: key, vs: state.run !== key ? state.run : state.vs });
  });
}
