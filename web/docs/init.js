// Renders /openapi.json with Swagger UI (loaded before this file). A file of its own: the
// Content-Security-Policy allows no inline script.
window.ui = window.SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The default would send the document to validator.swagger.io; CI validates it instead.
  validatorUrl: null,
  tryItOutEnabled: false,
  supportedSubmitMethods: ['get', 'post', 'head'],
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
