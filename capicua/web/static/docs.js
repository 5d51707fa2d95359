// /docs: Swagger UI over /openapi.json, started from this file rather than an inline script, so the page
// keeps a Content-Security-Policy without 'unsafe-inline' (capicua/web/headers.py). Not a module of the client.
//
// The swagger-ui-bundle package ships Swagger UI 4, which renders OpenAPI 3.0 only and refuses FastAPI's 3.1
// description outright ("Unable to render this definition"); what 3.1 adds that FastAPI writes (a `null` among
// `anyOf`, `examples`) it shows as plain schemas, so the description is shown to it as 3.0. /openapi.json
// itself stays 3.1. (Once the package ships Swagger UI 5, which reads 3.1, this goes.)
fetch("/openapi.json")
  .then((res) => res.json())
  .then((spec) => {
    if (String(spec.openapi).startsWith("3.1")) spec.openapi = "3.0.3";
    window.ui = SwaggerUIBundle({
      spec,
      dom_id: "#swagger-ui",
      layout: "BaseLayout",
      deepLinking: true,
      showExtensions: true,
      showCommonExtensions: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    });
  });
