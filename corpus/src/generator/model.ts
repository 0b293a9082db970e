import { FONT_BYTES, PIXEL_BYTES, type Lognormal, type GeneratorParams, type ResourceType } from "./params.js";
import { Rng } from "./random.js";

export type DomainRole = "main" | "shard" | "third-party" | "ad";

export interface Domain {
  /** Always under .test (RFC 2606), so a generated page can never reach a real host. */
  host: string;
  role: DomainRole;
  /** A CDN edge host: its name contains "cdn", the thesis's own test. */
  cdn: boolean;
}

export type ScriptLoading = "sync" | "async" | "defer" | "module";

/** Why the browser requests a resource. */
export type Request =
  | { kind: "navigation" }
  /** A tag in its frame's document; tags keep the order of SiteModel.resources. */
  | { kind: "tag"; location: "head" | "body"; loading: ScriptLoading | null }
  | { kind: "css"; stylesheet: string; rule: "font-face" | "background" }
  /** Requested by a script as it runs, or from one of its timer callbacks. */
  | { kind: "script"; script: string; api: "element" | "xhr" | "fetch"; timer: { chain: number; step: number } | null };

export interface Resource {
  /** "r<n>", unique in the page; r0 is the page itself. */
  id: string;
  type: ResourceType;
  host: string;
  path: string;
  url: string;
  bytes: number;
  serverDelayMs: number;
  /** The document (an html resource's id) whose frame requests this; null for the page. */
  frame: string | null;
  request: Request;
  /** Scripts only: how many scripts inserted the scripts above this one (a tag's script is 0). */
  scriptDepth: number | null;
  /** Read across origins (fonts, XHR/fetch, module scripts), so served with access-control-allow-origin. */
  cors: boolean;
}

/** setTimeout callbacks that each set the next; delaysMs[i] is the i-th timer's delay. */
export interface TimerChain {
  id: number;
  script: string;
  delaysMs: number[];
}

export interface SiteModel {
  seed: string;
  index: number;
  entry: string;
  domains: Domain[];
  resources: Resource[];
  timers: TimerChain[];
}

const PAGE = "r0";
const THIRD_PARTY_KINDS = ["analytics", "social", "widgets", "tags", "video", "maps", "reviews"];
/** Room the writer needs for each tag, rule or call it writes (URLs are under 80 characters); write-site checks it. */
const ROOM = { base: 800, perItem: 200 };
const PATH_OF: Record<ResourceType, (id: string) => string> = {
  html: (id) => `/frames/${id}.html`,
  css: (id) => `/css/${id}.css`,
  js: (id) => `/js/${id}.js`,
  image: (id) => `/img/${id}.png`,
  font: (id) => `/fonts/${id}.woff2`,
  json: (id) => `/api/${id}.json`,
  pixel: (id) => `/px/${id}.gif`,
};

/** One generated page: a pure function of (params, seed, index). */
export function generateSiteModel(params: GeneratorParams, seed: string | number, index: number): SiteModel {
  const p = params;
  const rng = Rng.from("pagepath-generator", seed, index);
  const total = draw(rng, p.resources);
  const iframeCount = Math.min(draw(rng, p.iframes.count), total - 1);
  const domains = makeDomains(rng, p, index, Math.min(draw(rng, p.domains.count), total));
  const resources = placeInFrames(rng, p, subresourceTypes(rng, p, total, iframeCount));
  const timers = makeTimers(rng, p, resources);
  chooseRequests(rng, p, resources, timers);
  assignHosts(rng, p, resources, domains);
  const room = roomNeeded(resources, timers);
  for (const r of resources) {
    r.path = r.id === PAGE ? "/index.html" : PATH_OF[r.type](r.id);
    r.url = `https://${r.host}${r.path}`;
    r.bytes = r.type === "font" ? FONT_BYTES : r.type === "pixel" ? PIXEL_BYTES : draw(rng, p.sizes[r.type]);
    r.bytes = Math.max(r.bytes, room.get(r.id) ?? 0);
    r.serverDelayMs = draw(rng, p.serverDelayMs[r.type]);
    r.cors = r.type === "font" || r.type === "json" || (r.request.kind === "tag" && r.request.loading === "module");
  }
  return { seed: String(seed), index, entry: resources[0]!.url, domains, resources, timers };
}

function draw(rng: Rng, d: Lognormal): number {
  return Math.round(Math.min(d.max, Math.max(d.min, rng.lognormal(d.median, d.sigma))));
}

function makeDomains(rng: Rng, p: GeneratorParams, index: number, count: number): Domain[] {
  const site = `gen${index}.test`;
  const shards = Math.min(count - 1, p.domains.maxShards, Math.round(count * p.domains.shardShare));
  const cdns = Math.min(count - 1, Math.round(count * p.cdn.domainShare));
  const external = count - 1 - shards;
  const externalCdns = Math.max(0, Math.min(external, cdns - shards));
  const ads = Math.round((external - externalCdns) * p.domains.adShare);
  const out: Domain[] = [{ host: `www.${site}`, role: "main", cdn: false }];
  for (let k = 1; k <= shards; k++) {
    const cdn = k <= cdns;
    out.push({ host: `${cdn ? "cdn" : "static"}${k}.${site}`, role: "shard", cdn });
  }
  const taken = new Set<string>();
  const fresh = (prefix: string): string => {
    for (;;) {
      const tag = Array.from({ length: 6 }, () => String.fromCharCode(97 + rng.int(0, 25))).join("");
      const host = `${prefix}-${tag}.test`;
      if (!taken.has(host)) return taken.add(host), host;
    }
  };
  for (let k = 0; k < external; k++) {
    if (k < externalCdns) out.push({ host: fresh("cdn"), role: "third-party", cdn: true });
    else if (k < externalCdns + ads) out.push({ host: fresh("ads"), role: "ad", cdn: false });
    else out.push({ host: fresh(rng.pick(THIRD_PARTY_KINDS)), role: "third-party", cdn: false });
  }
  return out;
}

/** Types of everything but the page, in document order: iframe documents and drawn subresource types. */
function subresourceTypes(rng: Rng, p: GeneratorParams, total: number, iframes: number): ResourceType[] {
  const types: ResourceType[] = Array.from({ length: total - 1 }, (_, i) => (i < iframes ? "html" : rng.weighted(p.typeShare)));
  for (let i = types.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [types[i], types[j]] = [types[j]!, types[i]!];
  }
  // XHR/fetch needs a script to make it, a font a stylesheet to declare it
  const need = (user: ResourceType, provider: ResourceType) => {
    const at = types.indexOf(user);
    if (at >= 0 && !types.includes(provider)) types[at] = provider;
  };
  need("json", "js");
  need("font", "css");
  return types;
}

function placeInFrames(rng: Rng, p: GeneratorParams, types: ResourceType[]): Resource[] {
  const blank = (id: string, type: ResourceType, frame: string | null): Resource => ({
    id, type, frame, host: "", path: "", url: "", bytes: 0, serverDelayMs: 0, scriptDepth: null, cors: false,
    request: frame === null ? { kind: "navigation" } : { kind: "tag", location: "body", loading: null },
  });
  const resources = [blank(PAGE, "html", null)];
  const depth = new Map([[PAGE, 0]]);
  const iframes = types.flatMap((t, i) => (t === "html" ? [`r${i + 1}`] : []));
  const placed = new Set<ResourceType>();
  types.forEach((type, i) => {
    const id = `r${i + 1}`;
    let frame = PAGE;
    if (type === "html") {
      const parents = iframes.filter((f) => depth.has(f) && depth.get(f)! < p.iframes.maxDepth);
      if (parents.length > 0 && rng.chance(p.iframes.nestedShare)) frame = rng.pick(parents);
      depth.set(id, depth.get(frame)! + 1);
    } else if (iframes.length > 0 && type !== "font" && placed.has(type) && rng.chance(p.iframes.resourceShare)) {
      // fonts, and the first stylesheet and script, stay in the page: what needs them can always fall back there
      frame = rng.pick(iframes);
    }
    placed.add(type);
    resources.push(blank(id, type, frame));
  });
  return resources;
}

function makeTimers(rng: Rng, p: GeneratorParams, resources: Resource[]): TimerChain[] {
  const scripts = resources.filter((r) => r.type === "js");
  const count = scripts.length > 0 ? draw(rng, p.timers.chains) : 0;
  return Array.from({ length: count }, (_, id) => ({
    id,
    script: rng.pick(scripts).id,
    delaysMs: Array.from({ length: rng.int(p.timers.length.min, p.timers.length.max) }, () => draw(rng, p.timers.delayMs)),
  }));
}

function chooseRequests(rng: Rng, p: GeneratorParams, resources: Resource[], timers: TimerChain[]): void {
  const frameOf = new Map(resources.map((r) => [r.id, r.frame]));
  const inFrame = (frame: string | null, type: ResourceType) => resources.filter((r) => r.frame === frame && r.type === type);
  const byScript = (script: Resource, api: "element" | "xhr" | "fetch"): Request => ({ kind: "script", script: script.id, api, timer: null });
  resources.forEach((r, i) => {
    const scripts = inFrame(r.frame, "js");
    const sheets = inFrame(r.frame, "css");
    switch (r.type) {
      case "css":
        r.request = { kind: "tag", location: "head", loading: null };
        break;
      case "js": {
        // only earlier scripts, so insertion never loops
        const parents = scripts.filter((s) => Number(s.id.slice(1)) < i && s.scriptDepth! < p.scripts.maxDepth);
        if (parents.length > 0 && rng.chance(p.scripts.insertedShare)) {
          const parent = rng.pick(parents);
          r.request = byScript(parent, "element");
          r.scriptDepth = parent.scriptDepth! + 1;
        } else {
          const location = rng.chance(p.scripts.headShare) ? "head" : "body";
          r.request = { kind: "tag", location, loading: rng.weighted(p.scripts.loading) };
          r.scriptDepth = 0;
        }
        break;
      }
      case "font":
        r.request = { kind: "css", stylesheet: rng.pick(sheets).id, rule: "font-face" };
        break;
      case "image": {
        const x = rng.next();
        if (x < p.images.cssBackgroundShare && sheets.length > 0) r.request = { kind: "css", stylesheet: rng.pick(sheets).id, rule: "background" };
        else if (x < p.images.cssBackgroundShare + p.images.scriptShare && scripts.length > 0) r.request = byScript(rng.pick(scripts), "element");
        break;
      }
      case "pixel":
        if (scripts.length > 0 && rng.chance(p.pixelScriptShare)) r.request = byScript(rng.pick(scripts), "element");
        break;
      case "json":
        // only the page is sure to have a script
        if (scripts.length === 0) r.frame = PAGE;
        r.request = byScript(rng.pick(inFrame(r.frame, "js")), rng.chance(p.fetchShare) ? "fetch" : "xhr");
        break;
    }
    const req = r.request;
    if (req.kind === "script" && r.type !== "js" && rng.chance(p.timers.loadShare)) {
      const chains = timers.filter((c) => frameOf.get(c.script) === r.frame);
      if (chains.length > 0) {
        const chain = rng.pick(chains);
        r.request = { ...req, script: chain.script, timer: { chain: chain.id, step: rng.int(0, chain.delaysMs.length - 1) } };
      }
    }
  });
}

/** Where each kind of domain's one guaranteed resource comes from, best first. */
const SEED_TYPES: Record<DomainRole | "cdn", ResourceType[]> = {
  main: [],
  ad: ["html", "pixel", "js", "image"],
  "third-party": ["js", "pixel", "json", "image"],
  shard: ["image", "css", "js", "font"],
  cdn: ["js", "image", "css", "font"],
};

/**
 * Gives every domain one resource that suits it (the thesis counts only domains something was
 * downloaded from), then places the rest: static objects on CDNs (most bytes) or the site's own
 * hosts and shards, trackers on ad and third-party hosts, iframe contents mostly on the iframe's host.
 */
function assignHosts(rng: Rng, p: GeneratorParams, resources: Resource[], domains: Domain[]): void {
  const hosts = (f: (d: Domain) => boolean) => domains.filter(f).map((d) => d.host);
  const main = domains[0]!.host;
  const ads = hosts((d) => d.role === "ad");
  const thirdParty = hosts((d) => d.role === "third-party" && !d.cdn);
  const cdnShards = hosts((d) => d.role === "shard" && d.cdn);
  const plainShards = hosts((d) => d.role === "shard" && !d.cdn);
  const externalCdns = hosts((d) => d.role === "third-party" && d.cdn);
  const pickFrom = (groups: [string[], number][]): string => {
    const live = groups.filter(([g, w]) => g.length > 0 && w > 0);
    if (live.length === 0) return main;
    const k = rng.weighted(Object.fromEntries(live.map(([, w], i) => [String(i), w])));
    return rng.pick(live[Number(k)]![0]);
  };

  resources[0]!.host = main;
  const open = resources.slice(1);
  for (const d of domains.slice(1)) {
    const prefs = SEED_TYPES[d.cdn ? "cdn" : d.role];
    const rank = (r: Resource) => (prefs.includes(r.type) ? prefs.indexOf(r.type) : prefs.length);
    const best = Math.min(...open.map(rank));
    const r = rng.pick(open.filter((x) => rank(x) === best));
    r.host = d.host;
    open.splice(open.indexOf(r), 1);
  }
  // iframe documents first: their contents lean on their hosts
  const hostOf = (id: string | null) => resources.find((r) => r.id === id)!.host;
  for (const r of [...open.filter((x) => x.type === "html"), ...open.filter((x) => x.type !== "html")]) {
    if (r.type === "html") r.host = pickFrom([[ads, 3], [thirdParty, 1]]);
    else if (r.frame !== PAGE) r.host = pickFrom([[[hostOf(r.frame)], 5], [ads, 3], [externalCdns, 2]]);
    else if (r.type === "json") r.host = pickFrom([[[main], 3], [thirdParty, 2]]);
    else if (r.type === "pixel") r.host = pickFrom([[ads, 3], [thirdParty, 2]]);
    else if (cdnShards.length + externalCdns.length > 0 && rng.chance(p.cdn.byteShare)) {
      r.host = pickFrom([[cdnShards, 3 * cdnShards.length], [externalCdns, externalCdns.length]]);
    } else r.host = pickFrom([[[main], 1 - p.domains.shardResourceShare], [plainShards, p.domains.shardResourceShare]]);
  }
}

/** Bytes the writer needs in each document, stylesheet and script for the tags, rules and calls it must hold. */
function roomNeeded(resources: Resource[], timers: TimerChain[]): Map<string, number> {
  const frameOf = new Map(resources.map((r) => [r.id, r.frame]));
  const items = new Map<string | null, number>();
  const add = (id: string | null, n = 1) => items.set(id, (items.get(id) ?? 0) + n);
  for (const r of resources) {
    const q = r.request;
    if (q.kind === "tag") add(r.frame);
    // a font or background needs an element that uses it in the stylesheet's document
    if (q.kind === "css") add(q.stylesheet), add(frameOf.get(q.stylesheet)!);
    if (q.kind === "script") add(q.script);
  }
  for (const c of timers) add(c.script, c.delaysMs.length);
  const room = new Map<string, number>();
  for (const r of resources) {
    const n = items.get(r.id) ?? 0;
    if (r.type === "html" || r.type === "js" || (r.type === "css" && n > 0)) room.set(r.id, ROOM.base + ROOM.perItem * n);
  }
  return room;
}
