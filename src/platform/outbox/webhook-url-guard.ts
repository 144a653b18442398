import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { VigilError, invalid } from '../lib/index.ts';

/**
 * Server-side request forgery guard for webhook URLs: only http(s), and
 * no host that resolves to loopback, private (RFC 1918, RFC 4193 ULA), link-local, CGNAT
 * (RFC 6598), unspecified, multicast/reserved or cloud metadata addresses. Checked at registration
 * and again on every delivery's own connection (see guardedLookup), so a DNS answer that changes
 * after registration (rebinding) cannot reach an internal address.
 */
const blocked = new BlockList();
const V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];
const reasons = new Map<string, BlockList>();
for (const [net, prefix, why] of V4) {
  blocked.addSubnet(net, prefix, 'ipv4');
  const one = new BlockList();
  one.addSubnet(net, prefix, 'ipv4');
  reasons.set(why + ` (${net}/${prefix})`, one);
}
for (const [net, prefix, why] of V6) {
  blocked.addSubnet(net, prefix, 'ipv6');
  const one = new BlockList();
  one.addSubnet(net, prefix, 'ipv6');
  reasons.set(why + ` (${net}/${prefix})`, one);
}

/** IPv4 embedded in ::ffff:a.b.c.d (mapped) or 64:ff9b::/96 (NAT64), else null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why an address may not receive webhooks, or null when it may. */
export function describeBlockedAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [addr, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (!blocked.check(addr, type)) return null;
  for (const [why, list] of reasons) if (list.check(addr, type)) return why;
  return 'not publicly routable';
}

/** the way out, said where a developer meets the refusal (a receiver on their own machine or LAN) */
const ALLOW_PRIVATE_HINT =
  'Webhooks go to public addresses only; to deliver to a receiver on this machine or your own network, start Vigil with VIGIL_WEBHOOK_ALLOW_PRIVATE=1.';

function refuse(url: string, detail: string, hint = true): VigilError {
  return new VigilError('webhook_url_not_allowed', `url: ${detail} (${url}).${hint ? ` ${ALLOW_PRIVATE_HINT}` : ''}`, { param: 'url' });
}

/** Parses and checks scheme and host without touching the network. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', 'must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(raw, `only http:// and https:// receivers are allowed, not ${url.protocol}//`);
  }
  if (!url.hostname) throw invalid('url', 'must name a host');
  return url;
}

/** Host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

type Lookup = (host: string) => Promise<LookupAddress[]>;
const lookupAll: Lookup = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))));

/**
 * Registration-time check: scheme, host, and (unless private receivers are allowed) every address
 * the host resolves to.
 */
export async function assertWebhookUrlAllowed(raw: string, opts: { allowPrivate: boolean; lookup?: Lookup }): Promise<URL> {
  const url = parseWebhookUrl(raw);
  if (opts.allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    const why = describeBlockedAddress(host);
    if (why) throw refuse(raw, `${host} is ${why}`);
    return url;
  }
  let addrs: LookupAddress[];
  try {
    addrs = await (opts.lookup ?? lookupAll)(host);
  } catch {
    throw refuse(raw, `the host ${host} does not resolve`, false);
  }
  if (addrs.length === 0) throw refuse(raw, `the host ${host} does not resolve`, false);
  for (const a of addrs) {
    const why = describeBlockedAddress(a.address);
    if (why) throw refuse(raw, `${host} resolves to ${a.address}, which is ${why}`);
  }
  return url;
}

/** Error raised inside a delivery's connection when the host resolves to a refused address. */
export class BlockedAddressError extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/**
 * A `lookup` for http.request/net.connect that refuses blocked addresses: the address checked is
 * the address connected to, which closes the DNS-rebinding gap a check-then-connect would leave.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string } & Record<string, unknown>,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  const family = options.family === 'IPv4' || options.family === 4 ? 4 : options.family === 'IPv6' || options.family === 6 ? 6 : 0;
  dnsLookup(hostname, { family, all: true, verbatim: true }, (err, addrs: LookupAddress[]) => {
    if (err) return callback(err, options.all ? [] : '', undefined);
    for (const a of addrs) {
      const why = describeBlockedAddress(a.address);
      if (why) return callback(new BlockedAddressError(`${hostname} resolves to ${a.address}, which is ${why}`), options.all ? [] : '', undefined);
    }
    if (options.all) return callback(null, addrs);
    if (addrs.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', undefined);
    callback(null, addrs[0].address, addrs[0].family);
  });
}
