import { describe, expect, it } from 'vitest';
import { utcDay } from './anonymous.js';
import { countedAddress } from './clientKeys.js';

describe('countedAddress', () => {
  it('counts an IPv4 client by its address, written plainly or mapped into IPv6', () => {
    expect(countedAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const prefix = '2001:db8:0:12::/64';
    expect(countedAddress('2001:db8:0:12::1')).toBe(prefix);
    expect(countedAddress('2001:0db8:0000:0012:abcd:ef01:2345:6789')).toBe(prefix);
    expect(countedAddress('2001:db8::12:1:2:3:4')).toBe('2001:db8:0:12::/64');
    expect(countedAddress('::1')).toBe('0:0:0:0::/64');
  });
});

describe('utcDay', () => {
  it('is the UTC date, whatever the local zone', () => {
    expect(utcDay(Date.UTC(2026, 10, 25, 23, 59, 59))).toBe('2026-11-25');
    expect(utcDay(Date.UTC(2026, 10, 26, 0, 0, 0))).toBe('2026-11-26');
  });
});
