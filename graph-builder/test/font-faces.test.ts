import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blocksText, matchFaces, scanFontFaces } from "../src/font-faces.js";

const SHEET = "https://cdn.example.test/css/site.css";

describe("@font-face rules and font matching (CSS Fonts 4)", () => {
  it("reads family, style, weight range, display and src URLs; data: and local() sources fetch nothing", () => {
    const faces = scanFontFaces(
      `/* a comment with @font-face { font-family: X } */
      @font-face { font-family: 'Nunito'; font-style: italic; font-weight: 200 900; font-display: swap;
        src: local("Nunito"), url(../f/nunito.woff2?v=1#x) format("woff2"), url("data:font/woff2;base64,AAAA") format("woff2"); }
      @font-face{font-family:"Icons";font-weight:bold;src:url(/f/icons.woff2)}`,
      SHEET,
    );
    assert.deepEqual(faces, [
      { family: "Nunito", style: "italic", weights: [200, 900], display: "swap", urls: ["https://cdn.example.test/f/nunito.woff2?v=1#x"] },
      { family: "Icons", style: "normal", weights: [700, 700], display: "auto", urls: ["https://cdn.example.test/f/icons.woff2"] },
    ]);
    assert.equal(blocksText(faces[0]!), false);
    assert.equal(blocksText(faces[1]!), true, "auto is block in Chromium");
  });

  const faces = scanFontFaces(
    ["300", "400", "700"].map((w) => `@font-face { font-family: Body; font-weight: ${w}; src: url(/b-${w}.woff2); }`).join("\n") +
      `@font-face { font-family: Body; font-style: italic; font-weight: 400; src: url(/b-400i.woff2); }
       @font-face { font-family: Body; font-weight: 400; unicode-range: U+0400-045F; src: url(/b-400-cyrillic.woff2); }`,
    SHEET,
  );
  const urls = (family: string, weight: string, style = "normal") => matchFaces(faces, { family, weight, style }).flatMap((f) => f.urls.map((u) => new URL(u).pathname));

  it("takes the first family in the list that has faces, and every unicode-range subset of the matched weight", () => {
    assert.deepEqual(urls('"Body", sans-serif', "400"), ["/b-400.woff2", "/b-400-cyrillic.woff2"]);
    assert.deepEqual(urls("Georgia, Body", "700"), ["/b-700.woff2"], "a family without faces is installed locally: the next one is asked");
    assert.deepEqual(urls("system-ui, sans-serif", "400"), [], "no web font at all");
  });

  it("picks the weight as §5.2 does: 400-500 looks up to 500 first, lighter looks down first, bolder looks up first", () => {
    assert.deepEqual(urls("Body", "500"), ["/b-400.woff2", "/b-400-cyrillic.woff2"], "no 500: down to 400");
    assert.deepEqual(urls("Body", "200"), ["/b-300.woff2"], "nothing lighter: up to 300");
    assert.deepEqual(urls("Body", "600"), ["/b-700.woff2"]);
    assert.deepEqual(urls("Body", "900"), ["/b-700.woff2"]);
  });

  it("prefers the asked style, falling back to normal", () => {
    assert.deepEqual(urls("Body", "400", "italic"), ["/b-400i.woff2"]);
    assert.deepEqual(urls("Body", "700", "italic"), ["/b-400i.woff2"], "italic faces first, then the nearest weight among them");
    assert.deepEqual(urls("Body", "300", "oblique"), ["/b-400i.woff2"], "oblique falls back to italic before normal");
  });
});
