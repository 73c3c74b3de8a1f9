// The replay page: the left and right arrow keys follow its Previous and Next links.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") { return; }
    var link = document.getElementById(event.key === "ArrowLeft" ? "replay-prev"
      : event.key === "ArrowRight" ? "replay-next" : "");
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });
}());
