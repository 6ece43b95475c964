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
   * Exceptions to the guard (`FETCH_ALLOW_HOSTS`), for tests and for deployments that mean to read
   * an intranet site; empty by default. Each entry is one of:
   * - a host name or IP literal, let through on any port whatever it resolves to, compared exactly
   *   (case and a trailing dot aside): allowing `localhost` does not allow `127.0.0.1`;
   * - `host:port` (`[v6]:port` for IPv6), the same for that port only;
   * - a CIDR network (`10.1.0.0/16`, `fd00::/8`): addresses in it may be connected to, whether
   *   written in the URL or answered by DNS for any name.
   * Each hop is matched on its own. See `parseAllowEntry` for the syntax.
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

/** One `FETCH_ALLOW_HOSTS` entry, parsed: a host on every port or one, or a network. */
export type AllowEntry = { kind: 'host'; host: string; port?: number } | { kind: 'network'; address: string; prefix: number; family: 'ipv4' | 'ipv6' };

const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** Parses a `FETCH_ALLOW_HOSTS` entry; throws an Error saying what is wrong with it. */
export function parseAllowEntry(entry: string): AllowEntry {
  const text = entry.trim();
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (cidr) {
    const address = cidr[1]!.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(address);
    const prefix = Number(cidr[2]);
    if (family === 0) throw new Error(`"${text}": the network ${address} is not an IP address`);
    if (prefix > (family === 4 ? 32 : 128)) throw new Error(`"${text}": the prefix must be at most ${family === 4 ? 32 : 128}`);
    return { kind: 'network', address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
  }
  if (isIP(text) === 6) return { kind: 'host', host: normalizeHost(text) };
  const withPort = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text);
  const host = withPort?.[1] ?? withPort?.[2];
  if (!withPort || !host) throw new Error(`"${text}" is not a host, host:port or CIDR network`);
  if (withPort[1] !== undefined && isIP(host) !== 6) throw new Error(`"${text}": only an IPv6 address goes in brackets`);
  if (withPort[2] !== undefined && isIP(host) === 0 && !HOST_NAME.test(host)) throw new Error(`"${text}": ${host} is not a host name`);
  const port = withPort[3] === undefined ? undefined : Number(withPort[3]);
  if (port !== undefined && (port < 1 || port > 65_535)) throw new Error(`"${text}": the port must be between 1 and 65535`);
  return { kind: 'host', host: normalizeHost(host), ...(port !== undefined && { port }) };
}

export class SsrfGuard {
  /** Allowed hosts, each with its allowed ports, or `null` for every port. */
  private readonly hosts = new Map<string, Set<number> | null>();
  private readonly networks = new BlockList();
  private readonly resolve: Resolver;

  constructor(options: SsrfOptions = {}) {
    for (const entry of (options.allowHosts ?? []).map(parseAllowEntry)) {
      if (entry.kind === 'network') {
        this.networks.addSubnet(entry.address, entry.prefix, entry.family);
        continue;
      }
      const ports = this.hosts.get(entry.host);
      if (entry.port === undefined || ports === null) this.hosts.set(entry.host, null);
      else this.hosts.set(entry.host, new Set([...(ports ?? []), entry.port]));
    }
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Whether a hop to `host` is let through; without a port, whether any port of it is (the connect-time lookup knows no port). */
  private hostAllowed(host: string, port?: number): boolean {
    const ports = this.hosts.get(host);
    if (ports === undefined) return false;
    return ports === null || port === undefined || ports.has(port);
  }

  /** Blocked, and in no allowed network. */
  private refuses(address: string): boolean {
    if (!isBlockedAddress(address)) return false;
    return !this.networks.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }

  /** Refuses a URL that is not http(s), or whose host is or resolves to a blocked address. */
  async checkUrl(url: URL): Promise<void> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchError('bad_url', 'fetch.not_http', { protocol: url.protocol }, { url: url.href });
    }
    const host = hostOf(url);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (this.hostAllowed(host, port)) return;
    if (isIP(host)) {
      if (this.refuses(host)) throw refused(url.href, host);
      return;
    }
    await this.addressesOf(host, false, url.href);
  }

  /** For the HTTP client's sockets: resolves, refuses blocked answers, and connects only to what was checked. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    // The hop's port was matched by `checkUrl`; here a host allowed on some port may resolve anywhere.
    const host = normalizeHost(hostname);
    this.addressesOf(host, this.hostAllowed(host)).then(
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

  private async addressesOf(host: string, trusted: boolean, url?: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      throw new FetchError('network', 'fetch.dns_failed', { host }, { ...(url && { url }), cause: error });
    }
    if (trusted) return addresses;
    if (addresses.length === 0) throw new FetchError('network', 'fetch.dns_failed', { host }, { ...(url && { url }) });
    // One blocked answer is enough to refuse: the socket could be handed any of them.
    const bad = addresses.find((entry) => this.refuses(entry.address));
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
