// CloudFront Function (viewer request, cloudfront-js-2.0) in front of the web files in S3.
// FILES (filled in at synth, lib/web.ts) maps each URL path the web build gave to its key;
// a directory's path answers its index.html. The console is a single-page app, so any other path
// under /console/ that names no file (no dot in its last part) gets its page, as the local server
// (shared/local/static.ts) does; anything else is not there.
// Plain JavaScript, as CloudFront runs it.
var FILES = {};
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls the function by this name.
function handler(event) {
  var request = event.request;
  // biome-ignore lint/style/useTemplate: kept to the ES5 syntax every CloudFront Functions runtime accepts.
  var key = FILES[request.uri] || (/\/$/.test(request.uri) && FILES[request.uri + 'index.html']);
  if (key) {
    request.uri = key;
    return request;
  }
  if (request.uri.indexOf('/console/') === 0 && request.uri.slice(request.uri.lastIndexOf('/')).indexOf('.') === -1) {
    request.uri = '/console/index.html';
    return request;
  }
  return { statusCode: 404, statusDescription: 'Not Found' };
}
