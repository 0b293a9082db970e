export { Rng } from "./random.js";
export {
  DEFAULT_PARAMS,
  FONT_BYTES,
  MIN_BYTES,
  PIXEL_BYTES,
  RESOURCE_TYPES,
  mergeParams,
  validateParams,
  type Lognormal,
  type GeneratorParams,
  type ResourceType,
  type SizedType,
  type SubresourceType,
} from "./params.js";
export { generateSiteModel, type Domain, type DomainRole, type Request, type Resource, type ScriptLoading, type SiteModel, type TimerChain } from "./model.js";
export { writeGeneratedSite } from "./write-site.js";
