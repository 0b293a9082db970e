import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { incompleteFetch, type FetchedResponse } from "@pagepath/runner";

const response = (target: string, status: number | null, bytes: number): FetchedResponse => ({ target, status, bytes, startUs: status === null ? null : 10, endUs: status === null ? null : 20 });

describe("a bulk fetch's check (pagepath-fetch and pagepath-sim's fetch mode)", () => {
  it("counts a fetch whose responses are all 200 and add up to the bytes expected", () => {
    assert.equal(incompleteFetch([response("/a", 200, 600), response("/b", 200, 400)], 1000), null);
  });

  it("names each status and the bytes got when a response failed or came back short", () => {
    assert.equal(incompleteFetch([response("/a", 200, 600), response("/b", 404, 400)], 1000), "statuses 200,404 and 1000 bytes of 1000");
    assert.equal(incompleteFetch([response("/a", 200, 600), response("/b", null, 0)], 1000), "statuses 200,none and 600 bytes of 1000");
    assert.equal(incompleteFetch([response("/a", 200, 600), response("/b", 200, 300)], 1000), "statuses 200,200 and 900 bytes of 1000");
  });
});
