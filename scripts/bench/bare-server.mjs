// The baseline for bench:redirect: the least a Node.js server can do for a short link,
// a 302 from a Map, with none of the service's parsing, caching or click reporting.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const targets = new Map(
  readFileSync(process.argv[2], 'utf8')
    .trim()
    .split('\n')
    .map((code) => [code, `https://example.com/${code}`]),
);
const server = createServer((req, res) => {
  const location = targets.get(req.url.slice(1));
  if (location) res.writeHead(302, { location, 'cache-control': 'private, no-store' }).end();
  else res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => console.log(`Ready: ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
