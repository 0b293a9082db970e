/* Stand-in for Google's analytics.js (universal analytics): takes over the ga() command queue the
   page's snippet built and sends one pageview hit for each "send", as an image beacon to /collect,
   as the real library does. Deterministic: no random client id or cache-buster. */
(function (w, d) {
  var name = w.GoogleAnalyticsObject || "ga";
  var queue = (w[name] && w[name].q) || [];
  var tid = "";
  function hit(type) {
    var q = "v=1&_v=j101&a=1&t=" + type + "&tid=" + encodeURIComponent(tid) + "&cid=555.1" +
      "&dl=" + encodeURIComponent(d.location.href) + "&dt=" + encodeURIComponent(d.title) +
      "&sr=" + screen.width + "x" + screen.height + "&ul=" + encodeURIComponent(navigator.language || "");
    var img = new Image(1, 1);
    img.src = "https://www.google-analytics.com/collect?" + q;
  }
  function ga(command, arg) {
    if (command === "create") tid = String(arg);
    else if (command === "send") hit(String(arg));
  }
  ga.loaded = true;
  for (var i = 0; i < queue.length; i++) ga.apply(null, queue[i]);
  w[name] = ga;
})(window, document);
