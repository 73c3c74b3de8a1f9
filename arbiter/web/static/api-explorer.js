// The API explorer (/docs/api): Swagger UI over this service's /openapi.json. Its files
// are served by this service (no CDN); this file starts it, as the pages'
// Content-Security-Policy runs no inline script.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.url,
    domNode: root,
    deepLinking: true,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
}());
