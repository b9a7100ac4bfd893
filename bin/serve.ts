import { startLocal } from '../shared/local/runtime';

// The SDK warns that its 2027 releases will need Node.js 22; Lambda runs 22 and the
// lockfile pins today's releases, so locally the notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * `npm start`: the local runtime on its embedded defaults.
 *   PORT (8080), DATA_DIR (./.data), SHORT_LINK_BASE (http://127.0.0.1:<PORT>),
 *   DEMO_API_KEY (a fixed 40-character key for the demo account).
 */
const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${process.env.PORT}`);

const service = await startLocal({
  port,
  dataDir: process.env.DATA_DIR || '.data',
  shortLinkBase: process.env.SHORT_LINK_BASE || undefined,
  demoApiKey: process.env.DEMO_API_KEY || undefined,
});

if (service.demo.issuedKey) {
  console.log(`Demo account ${service.demo.accountId}: API key ${service.demo.issuedKey} (shown once; keep it)`);
}
console.log(`Ready: API ${service.baseUrl}/service/<Module>/<Method>, short links ${service.runtime.config.shortLinkBase}/<code>`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await service.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
