import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go. A target must be `https` and every address its host resolves to must be a
 * public unicast address: not loopback, private, link-local (which holds the cloud metadata
 * service, 169.254.169.254), carrier-grade NAT, multicast, reserved or unspecified, in IPv4 or IPv6
 * (IPv4-mapped IPv6 is judged as the IPv4 address it carries). The check runs when an endpoint is
 * created and again inside every connection's DNS lookup, so a name that later resolves to an
 * internal address (DNS rebinding) is refused at delivery time. WEBHOOK_ALLOW_PRIVATE_TARGETS
 * lifts both rules (and allows `http`) for local development and tests: unsafe in production.
 */

export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
}

export interface TargetPolicy {
  allowPrivate: boolean;
}

/** Whether a webhook may connect to `address` (an IP literal). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL, parsed, when its form is allowed; a WebhookTargetError saying why otherwise. */
export function parseTargetUrl(url: string, policy: TargetPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookTargetError(`${JSON.stringify(url)} is not a URL`);
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    throw new WebhookTargetError(
      policy.allowPrivate
        ? 'the URL must start with https:// or http://'
        : 'the URL must start with https:// (http is allowed only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
    );
  }
  if (parsed.username || parsed.password) {
    throw new WebhookTargetError('the URL must not carry a user name or password');
  }
  if (parsed.hash) throw new WebhookTargetError('the URL must not have a #fragment');
  const host = hostOf(parsed);
  if (net.isIP(host) && !policy.allowPrivate && !isPublicAddress(host)) {
    throw new WebhookTargetError(`${host} is not a public address`);
  }
  return parsed;
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks the URL's form and that its host resolves, to public addresses only (unless the policy
 * allows private ones). For creating an endpoint; deliveries check again in their lookup.
 */
export async function checkTarget(url: string, policy: TargetPolicy): Promise<URL> {
  const parsed = parseTargetUrl(url, policy);
  const host = hostOf(parsed);
  if (net.isIP(host)) return parsed;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new WebhookTargetError(
      `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  if (!policy.allowPrivate) {
    const internal = addresses.find(({ address }) => !isPublicAddress(address));
    if (internal)
      throw new WebhookTargetError(`${host} resolves to ${internal.address}, not a public address`);
  }
  return parsed;
}

/** How `guardedLookup` resolves a name: every address of it, as `dns.lookup` with `all`. */
export type ResolveAllAddresses = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const systemResolver: ResolveAllAddresses = (hostname, options, callback) =>
  dns.lookup(hostname, options, callback);

/**
 * A `lookup` for http(s) agents that resolves as usual and fails the connection when any address
 * is not public: the delivery-time guard against DNS rebinding. IP-literal hosts never reach a
 * lookup, so the sender checks those with `parseTargetUrl` before it connects. `resolve` is the
 * system's resolver; tests give one that answers what they need.
 */
export function guardedLookup(
  policy: TargetPolicy,
  resolve: ResolveAllAddresses = systemResolver,
): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, list) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const internal = policy.allowPrivate
        ? undefined
        : list.find(({ address }) => !isPublicAddress(address));
      if (internal) {
        callback(
          new WebhookTargetError(`${hostname} resolves to ${internal.address}, not a public address`),
          '',
          0,
        );
        return;
      }
      if (options.all) {
        (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, list);
        return;
      }
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
