import ipaddr from 'ipaddr.js';
import { bareHost, isLocalhostName, leadsTo } from './hosts';

/**
 * Where webhooks may point. A webhook is a request the service makes on someone's
 * behalf, so without limits it reaches what only the service can: its own API (with a
 * key in the URL), the machine's loopback, the private network, cloud metadata.
 */
export interface WebhookTargetPolicy {
  /** Loopback, private, link-local and reserved addresses allowed too (a deliberate operator setting). */
  allowPrivate: boolean;
  /** The service's own base URLs (short links, delivery reports): never a target, whatever allowPrivate says. */
  ownBases: string[];
}

/** The setting that lifts the address rule, named in refusals so the operator knows the way out. */
export const ALLOW_PRIVATE_SETTING = 'WEBHOOK_ALLOW_PRIVATE_TARGETS';

/** ipaddr.js range names, in words; every range but `unicast` is refused. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  carrierGradeNat: 'a private (carrier-grade NAT)',
  uniqueLocal: 'a private (unique local)',
  linkLocal: 'a link-local',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
};

/**
 * Why an IP address may not receive webhooks, as a phrase naming it ("127.0.0.1, a
 * loopback address (…)"), or undefined when it may. IPv4-mapped IPv6
 * (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses are judged by the IPv4 address
 * they carry; everything that is not public unicast is refused unless private targets are
 * allowed.
 */
export function addressProblem(address: string, policy: Pick<WebhookTargetPolicy, 'allowPrivate'>): string | undefined {
  if (!ipaddr.isValid(address)) return `${address}, not an IP address`;
  const parsed = leadsTo(ipaddr.parse(address));
  const range = parsed.range();
  if (range === 'unicast' || policy.allowPrivate) return undefined;
  return `${address}, ${RANGE_WORDS[range] ?? 'a reserved'} address (${ALLOW_PRIVATE_SETTING}=1 allows private targets)`;
}

/**
 * Why a URL may not receive webhooks, judged from the URL alone (no DNS), or undefined:
 * http(s) only, no credentials, not the service itself, and an address written as an IP
 * (in any spelling WHATWG URL normalises: 2130706433, 0x7f.1, [::ffff:7f00:1]) or a
 * `localhost` name must be allowed by addressProblem. Names are checked again at every
 * delivery, on what they resolve to then.
 */
export function webhookTargetProblem(url: string, policy: WebhookTargetPolicy): string | undefined {
  if (!URL.canParse(url)) return 'Webhook URL is not a URL';
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return 'Webhook URL must be http or https';
  if (target.username || target.password) return 'Webhook URL must not carry credentials';
  if (policy.ownBases.some((base) => isOwnHost(target, base))) return `Webhook URL must not point at this service (${target.host})`;
  const host = bareHost(target.hostname);
  if (ipaddr.isValid(host)) {
    const problem = addressProblem(host, policy);
    return problem && `Webhook URL must not point at ${problem}`;
  }
  if (isLocalhostName(host) && !policy.allowPrivate) {
    return `Webhook URL must not point at ${host}, a loopback name (${ALLOW_PRIVATE_SETTING}=1 allows private targets)`;
  }
  return undefined;
}

/**
 * The same host as one of the service's bases, on its port or a standard one: http and
 * https of a public host usually reach the same service, another port on a shared local
 * host is another program.
 */
function isOwnHost(target: URL, base: string): boolean {
  if (!URL.canParse(base)) return false;
  const own = new URL(base);
  if (bareHost(target.hostname) !== bareHost(own.hostname)) return false;
  const port = effectivePort(target);
  return port === effectivePort(own) || port === 80 || port === 443;
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
