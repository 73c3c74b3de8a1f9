// Play by clicking the board (arbiter/web/board_clicks.py). The page lists the legal
// moves with the places of the picture that make each one (data-place="die:3"); a
// click narrows them, the places that can come next are highlighted, and once one
// move is left the script posts it with the page's own move form. A click on a place
// no legal move uses says why. Without this file the move buttons are the control.
// A move with a preview (a Worms Map Tile: the tile drawn at the hex picked) is drawn
// on the picture first, turned with buttons (or R), and played once confirmed. The
// places are reached with Tab too (Enter or Space picks one).
(function () {
  "use strict";
  var picked = [];
  var preview = null;  // {choices: [moves differing only in their preview], index}
  var SVG = "http://www.w3.org/2000/svg";

  function moves() {
    var el = document.getElementById("board-moves");
    if (!el) { return null; }
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }

  function begins(places, prefix) {
    if (places.length < prefix.length) { return false; }
    for (var i = 0; i < prefix.length; i++) { if (places[i] !== prefix[i]) { return false; } }
    return true;
  }

  function human(place) {
    var parts = place.split(":"), kind = parts[0], value = parts.slice(1).join(":");
    value = value.replace(/^mv-/, "");
    return { die: "die " + value, dir: value, heart: "the Hearts", hex: "hex " + value,
             box: "box " + value, connection: "connection " + value, bug: "the " + value,
             end: "the " + value + " of the row", card: "the card " + value,
             goal: "Goal card " + value, seat: "that player", worm: "worm " + value,
             tile: "tile " + value }[kind] || value || kind;
  }

  function say(text, bad) {
    var hint = document.getElementById("board-hint");
    if (!hint) { return; }
    hint.hidden = !text;
    hint.textContent = text || "";
    hint.classList.toggle("bad", !!bad);
  }

  // The places that can come next are highlighted (with a preview shown: the places
  // that can take the last one's place too, another hex for the same tile); those not
  // inside a pick link are made reachable with Tab.
  function highlight() {
    var all = moves(), picture = document.querySelector(".picture.clickable svg");
    if (!all || !picture) { return; }
    var next = {}, before = preview ? picked.slice(0, -1) : picked;
    all.forEach(function (m) {
      if (begins(m.places, before) && m.places.length > before.length) {
        next[m.places[before.length]] = true;
      }
    });
    picture.querySelectorAll("[data-place]").forEach(function (el) {
      var place = el.getAttribute("data-place");
      el.classList.toggle("target", !!next[place]);
      el.classList.toggle("chosen", picked.indexOf(place) >= 0);
      if (el.closest("a")) { return; }
      if (next[place]) {
        // a picture with controls is a group of them, no longer an image
        if (picture.getAttribute("role") === "img") { picture.setAttribute("role", "group"); }
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", "Pick " + human(place));
      } else if (el.hasAttribute("tabindex")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    });
  }

  function unshow() {
    var old = document.querySelector(".picture.clickable svg .board-preview");
    if (old) { old.remove(); }
  }

  // Draw the chosen move's preview (a shape the picture defines) where it goes, on top.
  function draw() {
    var picture = document.querySelector(".picture.clickable svg");
    unshow();
    if (!preview || !picture) { return; }
    var m = preview.choices[preview.index], g = document.createElementNS(SVG, "g");
    var use = document.createElementNS(SVG, "use");
    g.setAttribute("class", "board-preview");
    g.setAttribute("pointer-events", "none");
    g.setAttribute("data-shape", m.preview.shape);
    use.setAttribute("href", "#" + m.preview.shape);
    use.setAttribute("x", m.preview.x);
    use.setAttribute("y", m.preview.y);
    g.appendChild(use);
    picture.appendChild(g);
    var confirm = document.querySelector("#board-choices button.confirm");
    if (confirm) { confirm.textContent = "Confirm: " + m.words; }
    var turns = preview.choices.length > 1 ? " Turn it with the buttons or the R key, then" : "";
    say("Shown on the board: " + m.words + "." + turns + " confirm it, or pick another place.", false);
  }

  function turn(by) {
    if (!preview) { return; }
    var n = preview.choices.length;
    preview.index = (preview.index + by + n) % n;
    draw();
  }

  // The clicks leave moves that differ only in their preview (a tile's turns): show the
  // first, offer its turns, and play it only once confirmed.
  function show(choices, byKeys) {
    preview = { choices: choices, index: 0 };
    var box = document.getElementById("board-choices");
    if (box) {
      box.replaceChildren();
      box.hidden = false;
      var confirm = button("Confirm", "choice confirm", function () {
        submit(preview.choices[preview.index]);
      });
      if (choices.length > 1) {
        box.appendChild(button("Turn clockwise \u21bb", "turn clockwise", function () { turn(1); }));
        box.appendChild(button("Turn anticlockwise \u21ba", "turn anticlockwise", function () { turn(-1); }));
      }
      box.appendChild(confirm);
      box.appendChild(button("Start again", "again", reset));
    }
    draw();
    highlight();
    if (byKeys && box) {
      var first = box.querySelector("button");
      if (first) { first.focus({ preventScroll: false }); }
    }
  }

  function button(text, cls, act) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.addEventListener("click", act);
    return b;
  }

  function submit(move) {
    var form = document.querySelector("form.move-form");
    if (!form) { return; }
    var input = form.querySelector("input[name=move][type=hidden]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "move";
      form.appendChild(input);
    }
    input.value = move.move;
    var text = form.querySelector("input[name=text]");
    if (text) { text.value = ""; }
    say("Playing: " + move.words + ".", false);
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  function offer(choices) {
    var box = document.getElementById("board-choices");
    if (!box) { return; }
    box.replaceChildren();
    box.hidden = !choices.length && !picked.length;
    choices.forEach(function (m) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.textContent = m.words;
      b.addEventListener("click", function () { submit(m); });
      box.appendChild(b);
    });
    if (picked.length) {
      var again = document.createElement("button");
      again.type = "button";
      again.className = "again";
      again.textContent = "Start again";
      again.addEventListener("click", reset);
      box.appendChild(again);
    }
  }

  function reset() {
    picked = [];
    preview = null;
    unshow();
    say("", false);
    offer([]);
    highlight();
  }

  function why(place, all) {
    var used = all.some(function (m) { return m.places.indexOf(place) >= 0; });
    var name = human(place);
    if (!used) { return "No legal move uses " + name + " now: pick one of the highlighted places."; }
    if (picked.length) {
      return "After " + picked.map(human).join(" and ") + ", " + name +
        " is not a legal choice: pick one of the highlighted places, or start again.";
    }
    return "Pick one of the highlighted places first; " + name + " comes after it.";
  }

  // The place clicked: the topmost one under the pointer that can come next (a worm
  // standing on the hex a weapon aims at: the hex), else the topmost one.
  function placeAt(event, all) {
    var el = event.target.closest("[data-place]") ||
      (event.target.querySelector && event.target.querySelector("[data-place]"));
    var first = el ? el.getAttribute("data-place") : null;
    if (!document.elementsFromPoint || !event.clientX) { return first; }
    var stack = document.elementsFromPoint(event.clientX, event.clientY);
    for (var i = 0; i < stack.length; i++) {
      var under = stack[i].closest && stack[i].closest("[data-place]");
      if (!under) { continue; }
      var place = under.getAttribute("data-place");
      var tried = picked.concat([place]);
      if (all.some(function (m) { return begins(m.places, tried); })) { return place; }
    }
    return first;
  }

  // A place picked (a click, or Enter on a place reached with Tab: byKeys).
  function pick(place, all, byKeys) {
    var tried = picked.concat([place]);
    var live = all.filter(function (m) { return begins(m.places, tried); });
    var instead = picked.slice(0, -1).concat([place]);  // another hex for the same tile
    if (!live.length && preview && all.some(function (m) { return begins(m.places, instead); })) {
      tried = instead;
      live = all.filter(function (m) { return begins(m.places, tried); });
    }
    if (!live.length) {
      var fresh = all.filter(function (m) { return m.places[0] === place; });
      if (!picked.length || !fresh.length) { say(why(place, all), true); return; }
      tried = [place];
      live = fresh;
    }
    picked = tried;
    preview = null;
    unshow();
    var done = live.filter(function (m) { return m.places.length === picked.length; });
    var more = live.length - done.length;
    if (done.length && !more && done.every(function (m) { return m.preview; })) {
      show(done, byKeys);
      return;
    }
    if (live.length === 1 && done.length === 1) { submit(done[0]); return; }
    if (!more) {
      say("Choose one of these moves:", false);
    } else {
      say("Now pick one of the highlighted places" +
          (done.length ? ", or one of these moves:" : "."), false);
    }
    offer(done);
    highlight();
  }

  document.addEventListener("click", function (event) {
    var picture = event.target.closest && event.target.closest(".picture.clickable");
    if (!picture) { return; }
    var all = moves();
    if (!all) { return; }
    event.preventDefault();  // the picture's pick links are for pages without script
    var place = placeAt(event, all);
    if (!place) { return; }
    pick(place, all, event.detail === 0);  // 0: a link activated with the keyboard
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked.length) { reset(); return; }
    var el = event.target;
    var onPlace = el && el.getAttribute && el.getAttribute("data-place") &&
      el.closest && el.closest(".picture.clickable");
    if (onPlace && (event.key === "Enter" || event.key === " ")) {
      var all = moves();
      if (!all) { return; }
      event.preventDefault();
      pick(el.getAttribute("data-place"), all, true);
      return;
    }
    var typing = el && el.closest && el.closest("input, select, textarea");
    if (preview && !typing && (event.key === "r" || event.key === "R")) {
      event.preventDefault();
      turn(event.shiftKey ? -1 : 1);
    }
  });

  // The page replaces its content when the game moves (app.js): start again then.
  var main = document.querySelector("main");
  if (main && window.MutationObserver) {
    new MutationObserver(function () {
      if (!document.getElementById("board-hint") || document.getElementById("board-hint").hidden) {
        picked = [];
        preview = null;
      }
      if (preview) { draw(); }
      highlight();
    }).observe(main, { childList: true });
  }
  highlight();
}());
