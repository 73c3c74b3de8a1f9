// Arbiter pages, enhanced: local times, one submission per form, live updates.
// Everything works without this file; it only adds comfort.
(function () {
  "use strict";

  // Deadlines in the viewer's own time zone.
  document.querySelectorAll("time.local").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) {
      el.textContent = when.toLocaleString(undefined, {
        dateStyle: "medium", timeStyle: "short", timeZoneName: "short" });
    }
  });

  // A double click sends one move: the first submission disables the form's buttons
  // (the server also answers a repeated Idempotency-Key with the first answer).
  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
      window.setTimeout(function () {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });

  // The page reloads itself when the game moves (long-poll of the public log).
  var main = document.querySelector("main[data-game]");
  if (!main || main.dataset.status !== "active") { return; }
  var game = main.dataset.game, version = main.dataset.version;
  function poll() {
    fetch("/v1/games/" + encodeURIComponent(game) + "/events?after=" + version + "&wait=25",
          { credentials: "omit", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (body) {
        if (body.events && body.events.length) { window.location.reload(); return; }
        poll();
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  poll();
}());
