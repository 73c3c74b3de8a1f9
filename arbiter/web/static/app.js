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

  // A line above the game while the page has lost the service and tries again.
  var notice = document.createElement("p");
  notice.className = "reconnecting";
  notice.setAttribute("role", "status");
  notice.hidden = true;
  notice.textContent = "Connection lost: this page is reconnecting and will update itself.";
  main.parentNode.insertBefore(notice, main);
  var down = false;
  function connected(yes) {
    notice.hidden = yes;
    if (yes && down) { refresh(); }  // catch up on what happened while it was away
    down = !yes;
  }

  // The game's event stream (SSE). The browser retries a dropped stream by itself (with
  // Last-Event-ID), but an answer such as a balancer's 502 or the service's 503 closes
  // it for good: then the page opens a new one after a growing wait (1 s doubled up to
  // 30 s), and after FALL_BACK_AFTER closed streams in a row it long-polls /events
  // instead. The long-poll is also what a browser without EventSource uses.
  var KINDS = ["move", "chance", "resigned", "game-over", "seed-revealed", "clock-paused",
               "clock-resumed", "deadline-extended", "vacation"];
  var FIRST_WAIT = 1000, LONGEST_WAIT = 30000, FALL_BACK_AFTER = 6;
  var closed = 0;

  function follow() {
    if (leaving || main.dataset.status !== "active") { return; }
    // the talk panel shows the messages up to its data-talk-last: the stream starts
    // its talk after them (talk.js shows new ones; the page ignores "talk" events)
    var talk = document.getElementById("talk");
    var talkAfter = talk && talk.dataset.talkLast ? "&talk=" + talk.dataset.talkLast : "";
    var stream = new EventSource("/v1/games/" + encodeURIComponent(main.dataset.game) +
                                 "/stream?after=" + main.dataset.version + talkAfter +
                                 (main.dataset.presence ?
                                  "&presence=" + encodeURIComponent(main.dataset.presence) : ""));
    stream.onopen = function () { closed = 0; connected(true); };
    stream.onerror = function () {
      connected(false);
      if (stream.readyState !== EventSource.CLOSED) { return; }  // the browser retries
      closed += 1;
      if (closed >= FALL_BACK_AFTER) { poll(); return; }
      window.setTimeout(follow, Math.min(LONGEST_WAIT, FIRST_WAIT * Math.pow(2, closed - 1)));
    };
    KINDS.forEach(function (kind) {
      stream.addEventListener(kind, function (message) {
        connected(true);
        var event = JSON.parse(message.data);
        if (event.seq > Number(main.dataset.version)) { refresh(); }
        if (kind === "seed-revealed") { stream.close(); }
      });
    });
  }

  var pollWait = FIRST_WAIT;
  function poll() {
    if (leaving || main.dataset.status !== "active") { return; }
    var url = "/v1/games/" + encodeURIComponent(main.dataset.game) + "/events?after=" +
      main.dataset.version + "&wait=25";
    fetch(url, { credentials: "omit", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (body) {
        connected(true);
        pollWait = FIRST_WAIT;
        if (body.events && body.events.length) { refresh(); }
        window.setTimeout(poll, 200);
      })
      .catch(function () {
        connected(false);
        window.setTimeout(poll, pollWait);
        pollWait = Math.min(LONGEST_WAIT, pollWait * 2);
      });
  }

  if (window.EventSource) { follow(); } else { poll(); }
}());
