import type { Verb } from "../verb.js";
export const benchVerb: Verb = {
  name: "bench",
  summary: "benchmarks",
  usage: "usage: pagepath bench",
  options: {},
  async run() {
    return 0;
  },
};
