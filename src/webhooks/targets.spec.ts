import { describe, expect, it } from 'vitest';
import { isPublicAddress, parseTargetUrl, WebhookTargetError } from './targets.js';

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
