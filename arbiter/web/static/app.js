// Arbiter pages, enhanced: local times, one submission per form, live updates.
// Everything works without this file; it only adds comfort.
(function () {
  "use strict";

  // Deadlines in the viewer's own time zone.
  function localTimes(root) {
    root.querySelectorAll("time.local").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) {
        // (dateStyle/timeStyle cannot be combined with timeZoneName: a TypeError)
        el.textContent = when.toLocaleString(undefined, {
          year: "numeric", month: "short", day: "numeric", hour: "2-digit",
          minute: "2-digit", timeZoneName: "short" });
      }
    });
  }

  // A double click sends one move: the first submission disables the form's buttons
  // (the server also answers a repeated Idempotency-Key with the first answer).
  var leaving = false;  // a form was sent: the page is being replaced, stop updating it
  function oneSubmission(root) {
    root.querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.dataset.sent) { event.preventDefault(); return; }
        form.dataset.sent = "1";
        leaving = true;
        window.setTimeout(function () {
          form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
        }, 0);
      });
    });
  }

  localTimes(document);
  oneSubmission(document);

  // When the game moves, the page fetches itself again and swaps in the new content,
  // keeping the messages it shows (a reload shows the same state).
  var main = document.querySelector("main[data-game]");
  if (!main) { return; }

  function swap(html) {
    if (leaving) { return; }
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    if (!fresh) { window.location.reload(); return; }
    var messages = main.querySelector(".messages");
    var stale = fresh.querySelector(".messages");
    if (stale) { stale.remove(); }
    if (messages) { fresh.insertBefore(messages, fresh.firstChild); }
    main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
    main.dataset.version = fresh.dataset.version;
    main.dataset.status = fresh.dataset.status;
    document.title = doc.title;
    localTimes(main);
    oneSubmission(main);
  }

  var busy = false, again = false;
  function refresh() {
    if (leaving) { return; }
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.pathname, { credentials: "same-origin",
                                      headers: { "X-Arbiter-Live-Update": "1" } })
      .then(function (r) { return r.text(); }).then(swap)
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  // The game's event stream (SSE); the long-poll of /events where EventSource is absent.
  var KINDS = ["move", "chance", "resigned", "game-over", "seed-revealed", "clock-paused",
               "clock-resumed", "deadline-extended", "vacation"];
  if (window.EventSource) {
    if (main.dataset.status !== "active") { return; }
    var stream = new EventSource("/v1/games/" + encodeURIComponent(main.dataset.game) +
                                 "/stream?after=" + main.dataset.version);
    KINDS.forEach(function (kind) {
      stream.addEventListener(kind, function (message) {
        var event = JSON.parse(message.data);
        if (event.seq > Number(main.dataset.version)) { refresh(); }
        if (kind === "seed-revealed") { stream.close(); }
      });
    });
    return;
  }

  function poll() {
    if (main.dataset.status !== "active") { return; }
    var url = "/v1/games/" + encodeURIComponent(main.dataset.game) + "/events?after=" +
      main.dataset.version + "&wait=25";
    fetch(url, { credentials: "omit", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (body) {
        if (body.events && body.events.length) { refresh(); }
      })
      .then(function () { window.setTimeout(poll, 200); })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  poll();
}());
