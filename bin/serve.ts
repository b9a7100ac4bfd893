import { readServerSettings } from '../shared/config';
import { boundHeapGrowth, heapGrowthPercent } from '../shared/local/heap-growth';
import { STOP_GRACE_MS, startLocal } from '../shared/local/runtime';

// The SDK warns that its 2027 releases will need Node.js 22; Lambda runs 22 and the
// lockfile pins today's releases, so locally the notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * `npm start`: the local runtime on its embedded defaults.
 *   HOST (127.0.0.1), PORT (8080), DATA_DIR (./.data), SHORT_LINK_BASE (http://<HOST>:<PORT>),
 *   DEMO_API_KEY (a fixed 40-character key for the demo account), and the connection
 *   limits MAX_CONNECTIONS_PER_IP, MAX_CONNECTIONS and REQUEST_TIMEOUT_MS.
 *   LOCAL_HEAP_GROWTH_PERCENT (100) bounds how far the heaps grow between full collections.
 */
const settings = readServerSettings();
// Before the service allocates: the bound is V8's, for the whole process.
boundHeapGrowth(heapGrowthPercent());

const service = await startLocal({
  ...settings,
  dataDir: process.env.DATA_DIR || '.data',
  shortLinkBase: process.env.SHORT_LINK_BASE || undefined,
  demoApiKey: process.env.DEMO_API_KEY || undefined,
});

if (service.demo.issuedKey) {
  console.log(`Demo account ${service.demo.accountId}: API key ${service.demo.issuedKey} (shown once; keep it)`);
}
console.log(`Ready: API ${service.baseUrl}/service/<Module>/<Method>, short links ${service.runtime.config.shortLinkBase}/<code>`);
if ((settings.host === '0.0.0.0' || settings.host === '::') && !process.env.SHORT_LINK_BASE) {
  console.log(`Listening on every address (HOST=${settings.host}): set SHORT_LINK_BASE to the address clients use, or short links point at loopback`);
}

let stopping = false;
const stop = async (signal: NodeJS.Signals) => {
  // A second signal means now: whatever is in flight is given up.
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`Stopping (${signal}): no new connections; requests in flight have up to ${STOP_GRACE_MS / 1000} s`);
  await service.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
