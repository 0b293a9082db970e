/*! Stand-in for https://cdn.startbootstrap.com/sb-forms-latest.js (Start Bootstrap's SB Forms),
 * written for pagepath's offline corpus: no package holds the real script. It only marks the
 * page's forms that carry a data-sb-form-api-token as handled and posts nothing anywhere. */
(function () {
  "use strict";
  function attach() {
    var forms = document.querySelectorAll("form[data-sb-form-api-token]");
    for (var i = 0; i < forms.length; i++) {
      forms[i].classList.add("sb-form-ready");
      forms[i].addEventListener("submit", function (e) { e.preventDefault(); });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", attach);
  else attach();
})();
