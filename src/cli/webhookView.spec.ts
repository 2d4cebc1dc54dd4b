import { describe, expect, it } from 'vitest';
import type { DeliveryView } from '../webhooks/deliveryAdmin.js';
import { deliveriesText, pingOutcome, pingText } from './webhookView.js';

const now = new Date('2026-11-20T10:00:00.000Z');

function delivery(overrides: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id: 'whd_0a',
    endpointId: '3d1f4c1e-5b7a-4e0c-9a55-7b0f2f7c9e21',
    eventId: 'evt_0b',
    eventType: 'ping',
    status: 'pending',
    attemptCount: 0,
    nextAttemptAt: now,
    leaseUntil: null,
    lastStatus: null,
    lastError: null,
    redeliveryOf: null,
    createdAt: now,
    updatedAt: now,
    deliveredAt: null,
    attempts: [],
    ...overrides,
  };
}

const failedAttempt = {
  attempt: 1,
  startedAt: now,
  durationMs: 20,
  httpStatus: 500,
  error: 'HTTP 500',
  responseSnippet: 'line one\r\nline two\u0007',
};

describe('ping outcome', () => {
  it('is settled once delivered or dead, or failed with its attempt recorded', () => {
    expect(pingOutcome(delivery({ status: 'delivered' }), now)).toEqual({
      outcome: 'delivered',
      settled: true,
    });
    expect(pingOutcome(delivery({ status: 'dead' }), now)).toEqual({ outcome: 'dead', settled: true });
    expect(pingOutcome(delivery({ status: 'failed' }), now)).toEqual({ outcome: 'failed', settled: false });
    expect(pingOutcome(delivery({ status: 'failed', attempts: [failedAttempt] }), now)).toEqual({
      outcome: 'failed',
      settled: true,
    });
  });

  it('tells a ping a worker is sending from one no worker took', () => {
    const ahead = new Date(now.getTime() + 1000);
    const behind = new Date(now.getTime() - 1000);
    expect(pingOutcome(delivery({ leaseUntil: ahead }), now)).toEqual({
      outcome: 'in_flight',
      settled: false,
    });
    expect(pingOutcome(delivery({ leaseUntil: behind }), now)).toEqual({
      outcome: 'not_taken',
      settled: false,
    });
    expect(pingOutcome(delivery(), now)).toEqual({ outcome: 'not_taken', settled: false });
  });

  it('prints a failure with the attempt on one line and when the worker retries', () => {
    const failed = delivery({
      status: 'failed',
      attemptCount: 1,
      nextAttemptAt: new Date('2026-11-20T10:01:00.000Z'),
      attempts: [failedAttempt],
    });
    expect(pingText(failed, 'failed', '15s')).toBe(
      'Ping failed: #1  2026-11-20T10:00:00.000Z  HTTP 500  20 ms  response: line one line two; ' +
        'the worker retries it at 2026-11-20T10:01:00.000Z (delivery whd_0a, event evt_0b)\n',
    );
  });
});

describe('deliveries text', () => {
  it('puts each delivery’s attempts under its row, receiver text on one line', () => {
    const text = deliveriesText([
      delivery({ status: 'failed', attemptCount: 1, attempts: [failedAttempt], redeliveryOf: 'whd_09' }),
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^DELIVERY\s+EVENT\s+TYPE\s+ENDPOINT\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+CREATED$/,
    );
    expect(lines[1]).toMatch(
      /^whd_0a\s+evt_0b\s+ping\s+3d1f4c1e-5b7a-4e0c-9a55-7b0f2f7c9e21\s+failed\s+1\s+2026/,
    );
    expect(lines.slice(2)).toEqual([
      '    redelivery of whd_09',
      '    #1  2026-11-20T10:00:00.000Z  HTTP 500  20 ms  response: line one line two',
      '',
    ]);
  });
});
