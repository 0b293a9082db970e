export { makeCertificate, spkiHash, type Certificate } from "./certificate.js";
export { serveSite, type RunningSite, type ServedRequest } from "./site-server.js";
export { readSiteConfig, type SiteConfig, type RouteConfig } from "./site-config.js";
export { fixtureDir } from "./fixtures.js";
export * from "./stats/index.js";
export * from "./generator/index.js";
export * from "./build/index.js";
export { siteProfileOptions } from "./site-profile-options.js";
export * from "./realistic/index.js";
