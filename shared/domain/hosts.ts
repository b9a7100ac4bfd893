import ipaddr from 'ipaddr.js';

/**
 * Hosts as full links and webhook targets are judged: where an address leads, whatever
 * its spelling. Callers pass WHATWG hostnames, which already read IPv4 in any spelling
 * (2130706433, 0x7f.1) as dotted decimal.
 */

/** A hostname without IPv6 brackets or a final dot, in lower case. */
export function bareHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** The address a bare host names, as leadsTo gives it; undefined for a name. */
export function addressOf(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return ipaddr.isValid(host) ? leadsTo(ipaddr.parse(host)) : undefined;
}

/** IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) IPv6 addresses as the IPv4 address they reach. */
export function leadsTo(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.range() === 'rfc6052') return ipaddr.fromByteArray(v6.toByteArray().slice(12));
  return v6;
}

/** RFC 6761: localhost names are loopback whatever DNS says. */
export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}
