// CloudFront Function (viewer request, cloudfront-js-2.0) in front of the HTTP API:
// `/service/<Module>/<Method>` in any letter case goes on as all-lowercase, the spelling
// the API routes; the query string is left alone. Plain JavaScript, as CloudFront runs it.
function handler(event) {
  var request = event.request;
  var match = /^\/service\/([^/]+)\/([^/]+)$/i.exec(request.uri);
  if (match) request.uri = '/service/' + match[1].toLowerCase() + '/' + match[2].toLowerCase();
  return request;
}
