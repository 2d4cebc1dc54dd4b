import { describe, expect, it } from 'vitest';
import {
  checkEventTypes,
  checkGroupIds,
  generateSigningSecret,
  newDeliveryId,
  newPingEventId,
  parseEndpointGroups,
  parseEventTypeList,
  pingPayload,
  rotationGraceEnd,
} from './adminPolicy.js';

const VALID =
  'valid: all, case.created, check.completed, check.failed, match.reviewed, check.decision_updated, case.decision_recorded, monitoring.alert_created';

describe('event type selection', () => {
  it('takes "all" or names, in the canonical order without duplicates', () => {
    expect(parseEventTypeList('all')).toEqual({ ok: true, value: 'all' });
    expect(parseEventTypeList(' all ')).toEqual({ ok: true, value: 'all' });
    expect(parseEventTypeList('check.failed, case.created,check.failed')).toEqual({
      ok: true,
      value: ['case.created', 'check.failed'],
    });
    expect(checkEventTypes('all')).toEqual({ ok: true, value: 'all' });
    expect(checkEventTypes(['monitoring.alert_created'])).toEqual({
      ok: true,
      value: ['monitoring.alert_created'],
    });
  });

  it('refuses unknown names with the valid ones, an empty list, and "all" among names', () => {
    expect(parseEventTypeList('check.completed,case.closed,Case.Created')).toEqual({
      ok: false,
      message: `unknown event type "case.closed", "Case.Created"; ${VALID}`,
    });
    expect(checkEventTypes(['ping'])).toEqual({ ok: false, message: `unknown event type "ping"; ${VALID}` });
    expect(parseEventTypeList(' , ')).toEqual({
      ok: false,
      message: 'no event types given ("all" selects every one)',
    });
    expect(parseEventTypeList('all,case.created')).toEqual({
      ok: false,
      message: '"all" cannot be combined with event types',
    });
  });
});

describe('group selection', () => {
  const a = 'F9CE7CE8-95D0-491A-A2E4-0ABC65AE68DA';
  const b = '1874f46d-7842-47ea-bad4-ff8022860f0e';

  it('keeps null (every group), lower-cases ids and drops duplicates', () => {
    expect(parseEndpointGroups(undefined)).toEqual({ ok: true, value: null });
    expect(parseEndpointGroups('all')).toEqual({ ok: true, value: null });
    expect(parseEndpointGroups(`${a}, ${b},${a.toLowerCase()}`)).toEqual({
      ok: true,
      value: [a.toLowerCase(), b],
    });
    expect(checkGroupIds(null)).toEqual({ ok: true, value: null });
  });

  it('refuses ids that are not UUIDs, an empty list and "all" among ids', () => {
    expect(parseEndpointGroups(`${b},default,emea`)).toEqual({
      ok: false,
      message: 'not a group id: default, emea',
    });
    expect(parseEndpointGroups('')).toEqual({
      ok: false,
      message: 'no groups given (omit them for every group)',
    });
    expect(checkGroupIds([])).toEqual({ ok: false, message: 'no groups given (omit them for every group)' });
    expect(parseEndpointGroups(`all,${b}`)).toEqual({
      ok: false,
      message: '"all" cannot be combined with group ids',
    });
  });
});

describe('secrets and ids', () => {
  const counting = (size: number) => Buffer.from(Array.from({ length: size }, (_, n) => n));

  it('makes a secret of 32 random bytes in base64url behind whsec_', () => {
    const secret = generateSigningSecret(counting);
    expect(secret).toBe(`whsec_${counting(32).toString('base64url')}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateSigningSecret()).not.toBe(generateSigningSecret());
  });

  it('makes delivery and ping event ids of 32 random hex digits', () => {
    expect(newDeliveryId(counting)).toBe('whd_000102030405060708090a0b0c0d0e0f');
    expect(newPingEventId(counting)).toBe('evt_000102030405060708090a0b0c0d0e0f');
    expect(newDeliveryId()).toMatch(/^whd_[a-f0-9]{32}$/);
    expect(newPingEventId()).toMatch(/^evt_[a-f0-9]{32}$/);
  });
});

describe('rotation grace', () => {
  const now = new Date('2026-11-20T10:00:00Z');

  it('ends the grace after the given time, or has none for 0', () => {
    expect(rotationGraceEnd(now, 86_400_000)).toEqual(new Date('2026-11-21T10:00:00Z'));
    expect(rotationGraceEnd(now, 0)).toBeNull();
    expect(rotationGraceEnd(now, 7 * 86_400_000)).toEqual(new Date('2026-11-27T10:00:00Z'));
  });

  it('refuses a negative, fractional or longer than a week grace', () => {
    for (const graceMs of [-1, 0.5, 7 * 86_400_000 + 1, Number.NaN]) {
      expect(() => rotationGraceEnd(now, graceMs)).toThrow(RangeError);
    }
  });
});

describe('ping payload', () => {
  it('has the envelope of every event, the endpoint as its object', () => {
    const payload = pingPayload({
      eventId: 'evt_0a1b',
      createdAt: new Date('2026-11-20T10:00:00Z'),
      accountId: 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
      endpointId: '711eeba3-e805-41eb-a99e-546dc26e1015',
    });
    // Key order matters: the body is JSON.stringify of it, byte for byte what is signed.
    expect(JSON.stringify(payload)).toBe(
      '{"id":"evt_0a1b","type":"ping","api_version":"2026-06-09","created_at":"2026-11-20T10:00:00.000Z",' +
        '"data":{"account_id":"f9ce7ce8-95d0-491a-a2e4-0abc65ae68da","group_id":null,' +
        '"object":{"id":"711eeba3-e805-41eb-a99e-546dc26e1015","type":"webhook_endpoint"}}}',
    );
  });
});
