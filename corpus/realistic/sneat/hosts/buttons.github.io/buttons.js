/*! Stand-in for https://buttons.github.io/buttons.js (the github-buttons widget), written for
 * pagepath's offline corpus: no package holds the real script. Instead of drawing a star button
 * with a live count it only marks the page's <a class="github-button"> links as processed. */
(function () {
  "use strict";
  function render() {
    var links = document.querySelectorAll("a.github-button");
    for (var i = 0; i < links.length; i++) {
      links[i].classList.add("github-button-rendered");
      links[i].setAttribute("data-github-button", "stand-in");
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", render);
  else render();
})();
