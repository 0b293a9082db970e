export { corpusCatalogue, CORPUS_SEED, DEFAULT_GENERATED, type CorpusSite } from "./catalogue.js";
export { buildCorpus, type CorpusBuildEvent, type CorpusBuildResult } from "./build-corpus.js";
