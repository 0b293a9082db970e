export { corpusCatalogue, CORPUS_SEED, DEFAULT_GENERATED, type CorpusSite } from "./catalogue.js";
export { buildCorpus, type CorpusBuildEvent, type CorpusBuildOptions, type CorpusBuildResult } from "./build-corpus.js";
