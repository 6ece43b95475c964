/**
 * Keeps the page fetcher off the machine it runs on and the networks behind it: a page the agent
 * reads is chosen by a search engine or a model, so its address is untrusted input.
 *
 * Two checks, both needed. `checkUrl` runs before every hop (the first URL and each redirect) and
 * refuses IP literals in a blocked range and names that resolve into one. `lookup` is handed to the
 * HTTP client as its DNS lookup, so the address the socket connects to is the one that was checked:
 * a name that answers with a public address to the first check and with 127.0.0.1 to the connect
 * (DNS rebinding) is refused at connect time. Node does not call `lookup` for IP literals, which is
 * why literals are checked by `checkUrl` alone.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { FetchError } from './errors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to; the default asks the system resolver, as sockets do. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SsrfOptions {
  /**
   * Host names or IP literals let through whatever they resolve to, compared exactly (case and a
   * trailing dot aside). For tests and for deployments that mean to read an intranet site; empty
   * by default. Each hop is matched on its own, so allowing `localhost` does not allow `127.0.0.1`.
   */
  allowHosts?: readonly string[];
  resolve?: Resolver;
}

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the cloud metadata service at 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking networks, used inside some data centres
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, with the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local, with fd00:ec2::254 (the AWS metadata service over IPv6)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one the fetcher must not connect to. BlockList also matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 ranges. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export class SsrfGuard {
  private readonly allowed: ReadonlySet<string>;
  private readonly resolve: Resolver;

  constructor(options: SsrfOptions = {}) {
    this.allowed = new Set((options.allowHosts ?? []).map(normalizeHost));
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Refuses a URL that is not http(s), or whose host is or resolves to a blocked address. */
  async checkUrl(url: URL): Promise<void> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchError('bad_url', 'fetch.not_http', { protocol: url.protocol }, { url: url.href });
    }
    const host = hostOf(url);
    if (this.allowed.has(host)) return;
    if (isIP(host)) {
      if (isBlockedAddress(host)) throw refused(url.href, host);
      return;
    }
    await this.addressesOf(host, url.href);
  }

  /** For the HTTP client's sockets: resolves, refuses blocked answers, and connects only to what was checked. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addressesOf(normalizeHost(hostname)).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        const first = wanted[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} 没有可用的 IPv${options.family} 地址`), { code: 'ENOTFOUND' }), '');
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  private async addressesOf(host: string, url?: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      throw new FetchError('network', 'fetch.dns_failed', { host }, { ...(url && { url }), cause: error });
    }
    if (this.allowed.has(host)) return addresses;
    if (addresses.length === 0) throw new FetchError('network', 'fetch.dns_failed', { host }, { ...(url && { url }) });
    // One blocked answer is enough to refuse: the socket could be handed any of them.
    const bad = addresses.find((entry) => isBlockedAddress(entry.address));
    if (bad) throw refused(url ?? host, bad.address);
    return addresses;
  }
}

function refused(url: string, address: string): FetchError {
  return new FetchError('blocked_address', 'fetch.blocked_address', { address }, { url });
}

function hostOf(url: URL): string {
  return normalizeHost(url.hostname.replace(/^\[(.*)\]$/, '$1'));
}

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}
