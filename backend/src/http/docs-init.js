// Loaded by /backend/docs as a file of its own: the page has no inline script, so a script-src 'self' policy holds.
// validatorUrl null keeps Swagger UI from sending the document to its public validator.
window.ui = SwaggerUIBundle({ url: '/backend/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
