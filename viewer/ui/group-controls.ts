import type { GroupedLayout } from "../src/server/layout.js";
import type { GroupChoice } from "./site-data.js";

/** Each site's choice, kept while the user moves between sites and views; big graphs start grouped. */
const choices = new Map<string, GroupChoice>();

export function groupChoice(file: string): GroupChoice {
  let c = choices.get(file);
  if (!c) choices.set(file, (c = { collapse: "auto", except: new Set() }));
  return c;
}

/** Expands a collapsed group or collapses an expanded one, leaving the others as they are. */
export function toggleGroup(file: string, id: string): void {
  const { except } = groupChoice(file);
  if (!except.delete(id)) except.add(id);
}

/** The toolbar's "expand groups" and "group like nodes" buttons, each disabled when it would change nothing. */
export function mountGroupControls(bar: HTMLElement, file: string, groups: GroupedLayout["nodeGroups"], redraw: () => void): void {
  const set = (collapse: "all" | "none"): void => {
    choices.set(file, { collapse, except: new Set() });
    redraw();
  };
  const expand = bar.querySelector<HTMLButtonElement>("#expand-groups")!;
  const collapse = bar.querySelector<HTMLButtonElement>("#collapse-groups")!;
  const shut = groups.filter((g) => g.collapsed).length;
  expand.disabled = shut === 0;
  expand.title = `draw the ${groups.reduce((n, g) => n + (g.collapsed ? g.members.length : 0), 0)} nodes of ${shut} groups one by one`;
  collapse.disabled = shut === groups.length;
  collapse.title = `draw as one node each run of 8 or more same-kind siblings of one parent, and each chain of 8 or more of one kind: ${groups.length} here`;
  expand.addEventListener("click", () => set("none"));
  collapse.addEventListener("click", () => set("all"));
}
