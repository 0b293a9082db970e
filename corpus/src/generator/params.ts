/**
 * The knobs of the page generator, with defaults taken from the thesis (../seeds/001): section 4.2
 * for page structure (resource counts and sizes, domains, shards, CDNs, ads, iframes) and section
 * 3.4.1 for server processing delays.
 */

export const RESOURCE_TYPES = ["html", "css", "js", "image", "font", "json", "pixel"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Everything but HTML documents, whose number follows the iframe count instead of a share. */
export const SUBRESOURCE_TYPES = ["css", "js", "image", "font", "json", "pixel"] as const;
export type SubresourceType = (typeof SUBRESOURCE_TYPES)[number];

/** Types whose body size is drawn; fonts and pixels are fixed files (below). */
export const SIZED_TYPES = ["html", "css", "js", "image", "json"] as const;
export type SizedType = (typeof SIZED_TYPES)[number];

/** A 1x1 transparent GIF89a: the tracking pixel behind the thesis's spike at 40-44 bytes (no PNG is that small). */
export const PIXEL_BYTES = 43;
/** The bundled Open Sans woff2, served as is: Chromium's font sanitiser rejects a padded font. */
export const FONT_BYTES = 43236;
/** The smallest bodies the writer can produce: a PNG with its padding chunk, a JSON object with its id. */
export const MIN_BYTES: Record<SizedType, number> = { html: 256, css: 64, js: 256, image: 128, json: 32 };

/** A lognormal draw, clamped: median and sigma (of the logarithm) fit the thesis's CDFs, min/max bound it. */
export interface Lognormal {
  median: number;
  sigma: number;
  min: number;
  max: number;
}

export interface GeneratorParams {
  /** Resources per page, HTML documents included (4.2.1: median 100, 90% <= 200, largest 766). */
  resources: Lognormal;
  /**
   * Share of each type among a page's subresources; sums to 1. The JSON share is the number of
   * XHR/fetch calls, pixels are the 43-byte trackers.
   */
  typeShare: Record<SubresourceType, number>;
  /**
   * Body bytes per type (4.2.1: median 6 KB, 90% < 80 KB; CSS largest, then JS, images, HTML
   * smallest). HTML, CSS and JS grow beyond the draw when the tags, rules or code they must hold
   * need more room.
   */
  sizes: Record<SizedType, Lognormal>;
  domains: {
    /** Host names per page (4.2.2: median 20, from 1 to 127). */
    count: Lognormal;
    /** Share of a page's domains that are shards of the main site (4.2.2: few of them). */
    shardShare: number;
    /** Most shards a page has (businessinsider, with 127 domains, had 6). */
    maxShards: number;
    /** Share of main-frame static resources that shards serve rather than the main host, when neither is a CDN (shards carry most resources). */
    shardResourceShare: number;
    /** Share of the external domains (neither main host nor shard) that are ad servers; the rest are third parties. */
    adShare: number;
  };
  cdn: {
    /** Share of a page's domains that are CDN edge hosts, shards first (4.2.3: a third or less). */
    domainShare: number;
    /** Share of main-frame CSS, JS, image and font resources served by CDN hosts: most bytes (4.2.3: ~70%). */
    byteShare: number;
  };
  scripts: {
    /** How tag-inserted scripts load; sums to 1. Module scripts are fetched with CORS. */
    loading: { sync: number; async: number; defer: number; module: number };
    /** Share of tag-inserted scripts in head; the rest sit between the body's tags. */
    headShare: number;
    /** Share of a frame's scripts (all but its first) that another script inserts. */
    insertedShare: number;
    /** Longest chain of scripts loading scripts; a tag-inserted script is depth 0. */
    maxDepth: number;
  };
  iframes: {
    /** Iframes per page, nested ones included (4.2.2: half the pages have 2 or less, up to 35). */
    count: Lognormal;
    /** Share of iframes inside another iframe rather than in the page (ads wrap ads). */
    nestedShare: number;
    /** Deepest nesting; the page's own iframes are depth 1. */
    maxDepth: number;
    /** Share of a page's subresources that its iframes load (4.2.2: ads are a notable share). */
    resourceShare: number;
  };
  /** Images requested other than by an img tag (4.2.4: parsing first, then scripts, CSS last). */
  images: {
    /** Share requested through a CSS background-image url(); fonts always come through @font-face. */
    cssBackgroundShare: number;
    /** Share created by a script (new Image). */
    scriptShare: number;
  };
  /** Share of tracking pixels a script requests; the rest are img tags. */
  pixelScriptShare: number;
  /** Share of XHR/fetch calls made with fetch() rather than XMLHttpRequest. */
  fetchShare: number;
  timers: {
    /** setTimeout chains per page, each started by a script. */
    chains: Lognormal;
    /** Timers per chain: each callback sets the next. */
    length: { min: number; max: number };
    /** Delay of each timer, ms; some over a second, as pages poll and rotate ads. */
    delayMs: Lognormal;
    /** Share of script-requested resources (images, pixels, XHR/fetch) requested from a timer callback instead. */
    loadShare: number;
  };
  /**
   * Server processing delay per type, ms (3.4.1: most under a second, HTML slowest as it is
   * generated, static objects under 250 ms). Capped so a page loads in a few seconds locally.
   */
  serverDelayMs: Record<ResourceType, Lognormal>;
}

export const DEFAULT_PARAMS: GeneratorParams = {
  resources: { median: 100, sigma: 0.6, min: 3, max: 766 },
  typeShare: { css: 0.07, js: 0.25, image: 0.5, font: 0.03, json: 0.05, pixel: 0.1 },
  sizes: {
    html: { median: 3000, sigma: 1.0, min: 256, max: 300_000 },
    css: { median: 14_000, sigma: 1.3, min: 64, max: 1_000_000 },
    js: { median: 10_000, sigma: 1.7, min: 256, max: 2_000_000 },
    image: { median: 6_000, sigma: 2.0, min: 128, max: 3_000_000 },
    json: { median: 800, sigma: 1.2, min: 32, max: 200_000 },
  },
  domains: {
    count: { median: 20, sigma: 0.7, min: 1, max: 127 },
    shardShare: 0.15,
    maxShards: 8,
    shardResourceShare: 0.7,
    adShare: 0.4,
  },
  cdn: { domainShare: 0.3, byteShare: 0.8 },
  scripts: {
    loading: { sync: 0.55, async: 0.25, defer: 0.15, module: 0.05 },
    headShare: 0.6,
    insertedShare: 0.35,
    maxDepth: 3,
  },
  iframes: {
    count: { median: 2, sigma: 1.0, min: 0, max: 35 },
    nestedShare: 0.2,
    maxDepth: 3,
    resourceShare: 0.12,
  },
  images: { cssBackgroundShare: 0.1, scriptShare: 0.15 },
  pixelScriptShare: 0.75,
  fetchShare: 0.5,
  timers: {
    chains: { median: 2, sigma: 0.8, min: 0, max: 12 },
    length: { min: 1, max: 4 },
    delayMs: { median: 150, sigma: 1.3, min: 0, max: 2500 },
    loadShare: 0.15,
  },
  serverDelayMs: {
    html: { median: 120, sigma: 0.9, min: 5, max: 1000 },
    css: { median: 15, sigma: 0.9, min: 1, max: 250 },
    js: { median: 20, sigma: 1.0, min: 1, max: 1000 },
    image: { median: 15, sigma: 1.0, min: 1, max: 1000 },
    font: { median: 15, sigma: 0.8, min: 1, max: 250 },
    json: { median: 60, sigma: 1.0, min: 2, max: 1000 },
    pixel: { median: 30, sigma: 1.0, min: 1, max: 1000 },
  },
};

/**
 * Checks parameters read from a user's file: the same keys and kinds as DEFAULT_PARAMS, then values
 * the generator could not honour. The error names the parameter and the problem.
 */
export function validateParams(p: unknown): GeneratorParams {
  checkShape(p, DEFAULT_PARAMS, "");
  const g = p as GeneratorParams;
  checkValues(g as unknown as Tree, "");
  sumsToOne(g.typeShare, "typeShare");
  sumsToOne(g.scripts.loading, "scripts.loading");
  const { resources: r, domains: d, timers: t, typeShare: share } = g;
  const rules: [broken: boolean, message: string][] = [
    ...SIZED_TYPES.map((type): [boolean, string] => [
      g.sizes[type].min < MIN_BYTES[type],
      `sizes.${type}.min (${g.sizes[type].min}) is below ${MIN_BYTES[type]} bytes, the smallest valid ${type} body the writer can make`,
    ]),
    [r.min < 1, `resources.min (${r.min}) must be at least 1: the page itself is a resource`],
    [d.count.min < 1, `domains.count.min (${d.count.min}) must be at least 1: the page has a host`],
    [d.count.max > r.max, `domains.count.max (${d.count.max}) is larger than resources.max (${r.max}): every domain needs at least one resource`],
    [d.count.min > r.min, `domains.count.min (${d.count.min}) is larger than resources.min (${r.min}): every domain needs at least one resource`],
    [t.length.min < 1, `timers.length.min (${t.length.min}) must be at least 1: a chain has a timer`],
    [t.length.min > t.length.max, `timers.length.min (${t.length.min}) is larger than timers.length.max (${t.length.max})`],
    [g.iframes.count.max > 0 && g.iframes.maxDepth < 1, `iframes.maxDepth (${g.iframes.maxDepth}) must be at least 1 when iframes.count.max is above 0`],
    [share.json > 0 && share.js === 0, `typeShare.json (${share.json}) needs scripts to make the calls, but typeShare.js is 0`],
    [share.font > 0 && share.css === 0, `typeShare.font (${share.font}) needs stylesheets to declare the fonts, but typeShare.css is 0`],
  ];
  const broken = rules.find(([bad]) => bad);
  if (broken) throw new Error(broken[1]);
  return g;
}

/** DEFAULT_PARAMS deep-merged with a user's (partial) parameters, then validated. */
export function mergeParams(overrides: unknown): GeneratorParams {
  return validateParams(merge(DEFAULT_PARAMS, overrides));
}

type Tree = { [key: string]: Tree | number };

function isTree(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function merge(base: unknown, over: unknown): unknown {
  if (!isTree(base) || !isTree(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
  return out;
}

function checkShape(value: unknown, like: unknown, path: string): void {
  if (typeof like === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${path} (${JSON.stringify(value)}) must be a number`);
    return;
  }
  if (!isTree(value) || !isTree(like)) throw new Error(`${path || "the parameters"} must be an object`);
  for (const key of Object.keys(value)) {
    if (!(key in like)) throw new Error(`${at(path, key)} is not a parameter (${path || "top level"} has: ${Object.keys(like).join(", ")})`);
  }
  for (const [key, sub] of Object.entries(like)) {
    if (!(key in value)) throw new Error(`${at(path, key)} is missing`);
    checkShape(value[key], sub, at(path, key));
  }
}

function checkValues(node: Tree, path: string): void {
  for (const [key, v] of Object.entries(node)) {
    const name = at(path, key);
    if (isTree(v)) checkValues(v, name);
    else if (v < 0) throw new Error(`${name} (${v}) must not be negative`);
    else if (key.endsWith("Share") && v > 1) throw new Error(`${name} (${v}) is a share: it must be between 0 and 1`);
  }
  const { median, min, max } = node;
  if (typeof min === "number" && typeof max === "number" && min > max) throw new Error(`${path}.min (${min}) is larger than ${path}.max (${max})`);
  if (typeof median === "number" && typeof min === "number" && typeof max === "number" && (median < min || median > max)) {
    throw new Error(`${path}.median (${median}) lies outside ${path}.min..max (${min}..${max})`);
  }
}

function sumsToOne(shares: Record<string, number>, path: string): void {
  const sum = Object.values(shares).reduce((s, x) => s + x, 0);
  if (Math.abs(sum - 1) > 1e-6) throw new Error(`${path} shares sum to ${+sum.toFixed(6)}, not 1`);
}
