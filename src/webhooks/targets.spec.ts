import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  guardedLookup,
  isPublicAddress,
  parseTargetUrl,
  type ResolveAllAddresses,
  WebhookTargetError,
} from './targets.js';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.45.6.7', 'loopback'],
    ['10.0.0.1', '10/8'],
    ['10.255.255.255', '10/8'],
    ['172.16.0.1', '172.16/12'],
    ['172.31.255.254', '172.16/12'],
    ['192.168.1.1', '192.168/16'],
    ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
    ['100.127.255.254', 'carrier-grade NAT 100.64/10'],
    ['169.254.169.254', 'link-local: the cloud metadata service'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00::1', 'IPv6 unique local'],
    ['fc00::1', 'IPv6 unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['not-an-address', 'not an IP literal'],
    ['', 'empty'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('parseTargetUrl', () => {
  const publicOnly = { allowPrivate: false };
  const privateAllowed = { allowPrivate: true };
  const refusal = (url: string, policy = publicOnly) => {
    try {
      parseTargetUrl(url, policy);
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookTargetError);
      return (error as Error).message;
    }
    throw new Error(`${url} was allowed`);
  };

  it('allows https URLs of public addresses and of names (resolved later)', () => {
    expect(parseTargetUrl('https://8.8.8.8/hooks', publicOnly).href).toBe('https://8.8.8.8/hooks');
    expect(parseTargetUrl('https://[2606:4700:4700::1111]:8443/x', publicOnly).port).toBe('8443');
    expect(parseTargetUrl('https://hooks.example.com/casescreen?x=1', publicOnly).hostname).toBe(
      'hooks.example.com',
    );
  });

  it('refuses other schemes, user info, fragments and private literals', () => {
    expect(refusal('http://8.8.8.8/')).toBe(
      'the URL must start with https:// (http is allowed only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
    );
    expect(refusal('ftp://8.8.8.8/')).toMatch(/^the URL must start with https:\/\//);
    expect(refusal('https://user:secret@8.8.8.8/')).toBe('the URL must not carry a user name or password');
    expect(refusal('https://user@8.8.8.8/')).toBe('the URL must not carry a user name or password');
    expect(refusal('https://8.8.8.8/#part')).toBe('the URL must not have a #fragment');
    expect(refusal('https://127.0.0.1/')).toBe('127.0.0.1 is not a public address');
    expect(refusal('https://[::1]/')).toBe('::1 is not a public address');
    expect(refusal('https://[::ffff:127.0.0.1]/')).toMatch(/is not a public address$/);
    expect(refusal('https://169.254.169.254/latest/meta-data/')).toBe(
      '169.254.169.254 is not a public address',
    );
    expect(refusal('https://0.0.0.0/')).toBe('0.0.0.0 is not a public address');
    // WHATWG URL parsing turns other spellings of an IPv4 address into the dotted form first.
    expect(refusal('https://2130706433/')).toBe('127.0.0.1 is not a public address');
    expect(refusal('https://0x7f.1/')).toBe('127.0.0.1 is not a public address');
    expect(refusal('hooks.example.com')).toBe('"hooks.example.com" is not a URL');
  });

  it('allows http and private literals when private targets are allowed, still no user info', () => {
    expect(parseTargetUrl('http://127.0.0.1:4000/hooks', privateAllowed).port).toBe('4000');
    expect(parseTargetUrl('https://[::1]/', privateAllowed).hostname).toBe('[::1]');
    expect(refusal('ftp://127.0.0.1/', privateAllowed)).toBe('the URL must start with https:// or http://');
    expect(refusal('http://a:b@127.0.0.1/', privateAllowed)).toBe(
      'the URL must not carry a user name or password',
    );
  });
});

describe('guardedLookup: the delivery-time check of every address a name resolves to', () => {
  const publicOnly = { allowPrivate: false };
  const privateAllowed = { allowPrivate: true };
  const v4 = (address: string): dns.LookupAddress => ({ address, family: 4 });
  const v6 = (address: string): dns.LookupAddress => ({ address, family: 6 });

  /** A resolver that answers each lookup with the next of `answers`, and remembers what it was asked. */
  function scriptedResolver(...answers: (dns.LookupAddress[] | NodeJS.ErrnoException)[]) {
    const asked: { hostname: string; options: dns.LookupAllOptions }[] = [];
    const resolve: ResolveAllAddresses = (hostname, options, callback) => {
      asked.push({ hostname, options });
      const answer = answers[Math.min(asked.length, answers.length) - 1]!;
      // Asynchronous, as dns.lookup answers.
      setImmediate(() => (answer instanceof Error ? callback(answer, []) : callback(null, answer)));
    };
    return { resolve, asked };
  }

  /** One lookup through the guard, as an http agent makes it (one address, or all of them). */
  function lookUp(lookup: ReturnType<typeof guardedLookup>, hostname: string, all = false) {
    return new Promise<{ error: Error | null; result: unknown }>((resolve) => {
      lookup(hostname, all ? { all: true } : {}, (error, address, family) =>
        resolve({ error, result: all ? address : { address, family } }),
      );
    });
  }

  it.each([
    [[v4('127.0.0.1')], '127.0.0.1'],
    [[v6('::1')], '::1'],
    [[v4('10.1.2.3')], '10.1.2.3'],
    [[v4('169.254.169.254')], '169.254.169.254'],
    [[v6('::ffff:192.168.0.10')], '::ffff:192.168.0.10'],
    // A name with a public address and an internal one: the connection could take either.
    [[v4('8.8.8.8'), v4('127.0.0.1')], '127.0.0.1'],
  ])('refuses a name resolving to %j when private targets are not allowed', async (answer, internal) => {
    const { resolve } = scriptedResolver(answer);
    const { error } = await lookUp(guardedLookup(publicOnly, resolve), 'hooks.rebind.example');
    expect(error).toBeInstanceOf(WebhookTargetError);
    expect(error!.message).toBe(`hooks.rebind.example resolves to ${internal}, not a public address`);
  });

  it('checks every lookup: a name that resolved to a public address and now to loopback is refused then', async () => {
    const { resolve, asked } = scriptedResolver([v4('8.8.8.8')], [v4('127.0.0.1')]);
    const lookup = guardedLookup(publicOnly, resolve);
    expect(await lookUp(lookup, 'hooks.rebind.example')).toEqual({
      error: null,
      result: { address: '8.8.8.8', family: 4 },
    });
    const second = await lookUp(lookup, 'hooks.rebind.example');
    expect(second.error).toBeInstanceOf(WebhookTargetError);
    expect(second.error!.message).toBe('hooks.rebind.example resolves to 127.0.0.1, not a public address');
    expect(asked).toHaveLength(2);
  });

  it('asks for every address, and answers the form the caller asked for', async () => {
    const addresses = [v4('8.8.8.8'), v6('2001:4860:4860::8888')];
    const { resolve, asked } = scriptedResolver(addresses);
    const lookup = guardedLookup(publicOnly, resolve);
    expect(await lookUp(lookup, 'hooks.example.com', true)).toEqual({ error: null, result: addresses });
    expect(await lookUp(lookup, 'hooks.example.com')).toEqual({
      error: null,
      result: { address: '8.8.8.8', family: 4 },
    });
    expect(asked.map(({ options }) => options.all)).toEqual([true, true]);
  });

  it('passes a resolver error on, and lets internal addresses through when private targets are allowed', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    const failing = await lookUp(guardedLookup(publicOnly, scriptedResolver(notFound).resolve), 'x');
    expect(failing.error).toBe(notFound);
    const allowed = await lookUp(
      guardedLookup(privateAllowed, scriptedResolver([v4('127.0.0.1')]).resolve),
      'localhost',
    );
    expect(allowed).toEqual({ error: null, result: { address: '127.0.0.1', family: 4 } });
  });

  it('fails an HTTP request to such a name before it connects', async () => {
    let connections = 0;
    const server = http.createServer((_request, response) => response.end('reached'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const request = (policy: { allowPrivate: boolean }) =>
      new Promise<string>((resolve) => {
        // A fresh resolver per request: the name rebinds to the receiver's loopback address.
        const { resolve: resolver } = scriptedResolver([v4('127.0.0.1')]);
        http
          .get(
            `http://hooks.rebind.example:${port}/`,
            { lookup: guardedLookup(policy, resolver) },
            (response) => {
              response.resume();
              response.on('end', () => resolve(`HTTP ${response.statusCode}`));
            },
          )
          .on('error', (error) => resolve(`${error.name}: ${error.message}`));
      });
    try {
      expect(await request(publicOnly)).toBe(
        'WebhookTargetError: hooks.rebind.example resolves to 127.0.0.1, not a public address',
      );
      expect(connections).toBe(0);
      // The same request with private targets allowed reaches the server: the guard is what stopped it.
      expect(await request(privateAllowed)).toBe('HTTP 200');
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
