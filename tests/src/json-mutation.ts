/** JSON documents changed at one place, for fuzzing readers of pagepath's files (fast-check). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every place in a JSON value, as the keys that lead there. */
function places(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(v) ? v.flatMap((x, i) => places(x, [...at, i])) : v && typeof v === "object" ? Object.entries(v).flatMap(([k, x]) => places(x, [...at, k])) : [];
  return [at, ...inner];
}

/** `base` with the value at one place replaced by `value`, or taken out when `value` is undefined. */
export function changed(base: Json, pick: number, value: Json | undefined): Json {
  const doc = structuredClone(base);
  const all = places(doc).filter((p) => p.length > 0);
  if (all.length === 0) return value ?? null;
  const path = all[pick % all.length]!;
  let parent: any = doc;
  for (const k of path.slice(0, -1)) parent = parent[k];
  const last = path.at(-1)!;
  if (value !== undefined) parent[last] = value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return doc;
}
