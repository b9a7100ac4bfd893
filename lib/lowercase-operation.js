// CloudFront Function (viewer request, cloudfront-js-2.0) in front of the HTTP API:
// `/service/<Module>/<Method>` in any letter case goes on as all-lowercase, the spelling
// the API routes; the query string is left alone. Plain JavaScript, as CloudFront runs it.
// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls the function by this name.
function handler(event) {
  var request = event.request;
  var match = /^\/service\/([^/]+)\/([^/]+)$/i.exec(request.uri);
  // biome-ignore lint/style/useTemplate: kept to the ES5 syntax every CloudFront Functions runtime accepts.
  if (match) request.uri = '/service/' + match[1].toLowerCase() + '/' + match[2].toLowerCase();
  return request;
}
