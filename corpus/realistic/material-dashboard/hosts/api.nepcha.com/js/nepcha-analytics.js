/*! Stand-in for https://api.nepcha.com/js/nepcha-analytics.js (Nepcha web analytics), written for
 * pagepath's offline corpus: no package holds the real script. Like the real one it reads its
 * site from the script tag's data-site and, once the page has loaded, sends one page-view
 * beacon to its API host (answered with an empty 204). */
(function () {
  "use strict";
  var script = document.currentScript;
  var site = (script && script.getAttribute("data-site")) || location.hostname;
  function pageview() {
    var hit = JSON.stringify({ site: site, url: location.href, referrer: document.referrer, width: innerWidth });
    if (navigator.sendBeacon) navigator.sendBeacon("https://api.nepcha.com/api/collect", hit);
  }
  if (document.readyState === "complete") pageview();
  else addEventListener("load", pageview);
})();
