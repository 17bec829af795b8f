import type { IncomingMessage } from 'node:http';
import express from 'express';
import { ConfigError, loadConfig } from '../config/config.js';
import { arrivedOverTls, compileTrustProxy, parseTrustProxy, throttleAddress, type TrustProxySetting } from '@rc/shared-http';

const parse = (raw: string | undefined) => {
  const problems: string[] = [];
  const setting = parseTrustProxy(raw, problems);
  return { setting, problems };
};

const request = (remoteAddress: string, headers: Record<string, string> = {}, encrypted = false) =>
  ({ socket: { remoteAddress, ...(encrypted ? { encrypted: true } : {}) }, headers }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['  ', 0],
    ['false', 0],
    ['0', 0],
    ['1', 1],
    ['10', 10],
    ['loopback', ['loopback']],
    ['Loopback, 10.0.0.0/8 ,fd00::/8', ['loopback', '10.0.0.0/8', 'fd00::/8']],
    ['192.0.2.10,uniquelocal,linklocal', ['192.0.2.10', 'uniquelocal', 'linklocal']],
    ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
    ['::1', ['::1']],
  ] as [string | undefined, TrustProxySetting][])('reads %j as %j', (raw, expected) => {
    expect(parse(raw)).toEqual({ setting: expected, problems: [] });
  });

  it.each([
    ['true', /TRUST_PROXY=true would believe X-Forwarded-For from any client/],
    ['11', /hop count from 0 to 10/],
    ['loopbak', /'loopbak' is not an IP address, a range/],
    ['10.0.0.0/33', /'10.0.0.0\/33' is not an IP address/],
    ['10.0.0.1,,10.0.0.2', /'' is not an IP address/],
    ['proxy.internal', /'proxy.internal' is not an IP address/],
    ['-1', /'-1' is not an IP address/],
  ])('refuses %j with a clear message', (raw, message) => {
    const { problems } = parse(raw);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('stops the start through loadConfig, naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY: 'yes please'/);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(loadConfig({}).trustProxy).toBe(0);
  });

  describe('as a rule', () => {
    it('a hop count trusts that many peers from the server', () => {
      const trust = compileTrustProxy(2);
      expect([0, 1, 2].map((hop) => trust('203.0.113.1', hop))).toEqual([true, true, false]);
      expect(compileTrustProxy(0)('127.0.0.1', 0)).toBe(false);
    });

    it('addresses and ranges trust those peers only (IPv4-mapped too)', () => {
      const trust = compileTrustProxy(['loopback', '10.0.0.0/8']);
      expect(trust('127.0.0.1', 0)).toBe(true);
      expect(trust('::ffff:127.0.0.1', 0)).toBe(true);
      expect(trust('::1', 0)).toBe(true);
      expect(trust('10.20.30.40', 3)).toBe(true);
      expect(trust('192.0.2.1', 0)).toBe(false);
      expect(trust('not an address', 0)).toBe(false);
    });

    it.each([
      [0, '127.0.0.1', '127.0.0.1'],
      [1, '127.0.0.1', '203.0.113.9'],
      [['loopback'], '127.0.0.1', '203.0.113.9'],
      [['loopback'], '192.0.2.50', '192.0.2.50'],
      [['loopback', '203.0.113.0/24'], '127.0.0.1', '198.51.100.1'],
    ] as [TrustProxySetting, string, string][])('with %j, a request from %s forwarded for "198.51.100.1, 203.0.113.9" is from %s in Express', (setting, peer, expected) => {
      const app = express();
      app.set('trust proxy', compileTrustProxy(setting));
      const req = Object.create(app.request) as { app: unknown; ip: string; headers: Record<string, string>; socket: unknown; connection: unknown };
      req.app = app;
      req.headers = { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' };
      req.socket = req.connection = { remoteAddress: peer };
      expect(req.ip).toBe(expected);
    });
  });

  describe('arrivedOverTls', () => {
    const loopback = compileTrustProxy(['loopback']);

    it('is true on an encrypted socket', () => {
      expect(arrivedOverTls(request('192.0.2.1', {}, true), compileTrustProxy(0))).toBe(true);
    });

    it("believes X-Forwarded-Proto from a trusted proxy only (its first value, as Express's req.protocol)", () => {
      expect(arrivedOverTls(request('127.0.0.1', { 'x-forwarded-proto': 'https' }), loopback)).toBe(true);
      expect(arrivedOverTls(request('127.0.0.1', { 'x-forwarded-proto': 'HTTPS, http' }), loopback)).toBe(true);
      expect(arrivedOverTls(request('127.0.0.1', { 'x-forwarded-proto': 'http' }), loopback)).toBe(false);
      expect(arrivedOverTls(request('127.0.0.1', {}), loopback)).toBe(false);
      expect(arrivedOverTls(request('192.0.2.1', { 'x-forwarded-proto': 'https' }), loopback)).toBe(false);
      expect(arrivedOverTls(request('127.0.0.1', { 'x-forwarded-proto': 'https' }), compileTrustProxy(0))).toBe(false);
      expect(arrivedOverTls(request('192.0.2.1', { 'x-forwarded-proto': 'https' }), compileTrustProxy(1))).toBe(true);
    });
  });

  describe('throttleAddress', () => {
    it.each([
      ['192.0.2.1', '192.0.2.1'],
      ['::ffff:192.0.2.1', '192.0.2.1'],
      ['::FFFF:192.0.2.1', '192.0.2.1'],
      ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
      ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
      ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
      ['2001:db8::1', '2001:db8:0:0::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['64:ff9b:1::192.0.2.1', '64:ff9b:1:0::/64'],
      ['unknown', 'unknown'],
      ['x'.repeat(100), 'x'.repeat(64)],
    ])('counts %s as %s', (address, key) => {
      expect(throttleAddress(address)).toBe(key);
    });
  });
});
