import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { addressProblem, type WebhookTargetPolicy, webhookTargetProblem } from '../domain/webhook-targets';
import type { DeliveryResult } from '../domain/webhooks';

/** Every address a host name has now. */
export type Resolve = (hostname: string) => Promise<string[]>;

const systemResolve: Resolve = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((found) => found.address);

/** A target refused after resolution; nothing was sent. */
class RefusedTarget extends Error {
  override readonly name = 'RefusedTarget';
}

/**
 * Posts webhook events under the target policy. A name is resolved once per request,
 * every address it has is checked, and the connection goes to a checked address (the
 * socket's own lookup does it), so a name that changes its answer between a check and
 * the connect (DNS rebinding) cannot slip through. One 301/302 is followed, its target
 * checked the same way, with the same body; a second one fails the attempt. One timeout
 * covers the whole attempt.
 */
export function webhookSender(policy: WebhookTargetPolicy, resolve: Resolve = systemResolve) {
  const lookup = checkedLookup(policy, resolve);
  return async function post(url: string, body: string, timeoutMs: number): Promise<DeliveryResult> {
    const signal = AbortSignal.timeout(timeoutMs);
    let target = url;
    let redirects = 0;
    const via = () => (redirects ? ` (redirected to ${target})` : '');
    const refused = (problem: string): DeliveryResult => ({
      ok: false,
      refused: true,
      detail: redirects ? `Redirected to ${target}: ${problem}` : problem,
    });
    try {
      for (;;) {
        const problem = webhookTargetProblem(target, policy);
        if (problem) return refused(problem);
        const { status, location } = await postOnce(target, body, signal, lookup);
        if ((status === 301 || status === 302) && location !== undefined) {
          if (redirects === 1) return { ok: false, detail: `HTTP ${status}${via()}: a second redirect; one is followed` };
          if (!URL.canParse(location, target)) return { ok: false, detail: `HTTP ${status} to an unusable Location: ${location}` };
          target = new URL(location, target).href;
          redirects++;
          continue;
        }
        return { ok: status >= 200 && status < 300, detail: `HTTP ${status}${via()}` };
      }
    } catch (error) {
      if (error instanceof RefusedTarget) return refused(error.message);
      if (signal.aborted) return { ok: false, detail: `No answer within ${timeoutMs} ms${via()}` };
      return { ok: false, detail: `${(error as Error).message}${via()}` };
    }
  };
}

/** The status and Location of one POST; the body of the answer is not read. */
function postOnce(url: string, body: string, signal: AbortSignal, lookup: LookupFunction): Promise<{ status: number; location?: string }> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'shortsms-webhooks/1' },
        signal,
        lookup,
        // No pooled sockets: each request connects through the checked lookup.
        agent: false,
      },
      (response) => {
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
        response.destroy();
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A socket lookup that refuses a name when any of its addresses is refused, and
 * otherwise hands the socket exactly the addresses it checked. (IP literals never reach
 * a lookup; webhookTargetProblem judges them first.)
 */
function checkedLookup(policy: WebhookTargetPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new Error(`${hostname} has no address`);
        for (const address of addresses) {
          const problem = addressProblem(address, policy);
          if (problem) throw new RefusedTarget(`Webhook host ${hostname} resolves to ${problem}`);
        }
        const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const found = addresses
          .map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }))
          .filter(({ family }) => (wanted === 4 || wanted === 6 ? family === wanted : true));
        const [first] = found;
        if (first === undefined) throw new Error(`${hostname} has no IPv${wanted} address`);
        if (options.all) callback(null, found);
        else callback(null, first.address, first.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 0));
  };
}
