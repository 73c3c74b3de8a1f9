// The buttons of the small pages a mailed link opens (arbiter/resources/pages.py):
// each POSTs its JSON body to its URL and shows the answer. A file of its own, since
// the Content-Security-Policy runs no inline script.
(function () {
  "use strict";
  document.querySelectorAll("button[data-url]").forEach(function (b) {
    b.addEventListener("click", async function () {
      var r = await fetch(b.dataset.url, {method: "POST",
        headers: {"Content-Type": "application/json"}, body: b.dataset.body});
      var a = await r.json();
      var token = a.token && a.token.token ? a.token.token
        : (typeof a.token === "string" ? a.token : null);
      document.getElementById("out").textContent = !r.ok ? a.detail
        : (token ? "Done. Your personal API token (shown once):\n" + token : "Done.");
    });
  });
})();
