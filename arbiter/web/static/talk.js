// The talk panel's live update (templates/talk_panel.html): a long-poll of
// /games/<id>/talk?after=n&wait=25, which answers as soon as a message this browser
// may read comes after the last one shown (the web process waits without a thread);
// then the page is fetched and its list of messages swapped in (the forms, and what is
// being typed in them, stay as they are). Without JavaScript the panel is read by
// reloading the page.
(function () {
  "use strict";
  if (window.arbiterTalk || !window.fetch) { return; }
  window.arbiterTalk = true;
  var FIRST_WAIT = 1000, LONGEST_WAIT = 30000, pause = FIRST_WAIT;

  function panel() { return document.getElementById("talk"); }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("talk"), old = panel();
    if (!fresh || !old) { return; }
    var lines = old.querySelector("#talk-lines"), freshLines = fresh.querySelector("#talk-lines");
    if (lines && freshLines) { lines.replaceWith(freshLines); }
    old.dataset.talkLast = fresh.dataset.talkLast;
  }

  function poll() {
    var main = document.querySelector("main[data-game]"), here = panel();
    if (!main || !here) { return; }
    var after = here.dataset.talkLast || "0";
    fetch("/games/" + encodeURIComponent(main.dataset.game) + "/talk?after=" + after + "&wait=25",
          { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (body) {
        pause = FIRST_WAIT;
        if (body.messages && body.messages.length) {
          return fetch(window.location.pathname, { credentials: "same-origin",
                                                   headers: { "X-Arbiter-Live-Update": "1" } })
            .then(function (r) { return r.text(); }).then(swap);
        }
      })
      .then(function () { window.setTimeout(poll, 200); })
      .catch(function () {
        window.setTimeout(poll, pause);
        pause = Math.min(LONGEST_WAIT, pause * 2);
      });
  }

  poll();
})();
