import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_BODY_BYTES,
  type ReceivedWebhook,
  startWebhookListener,
  type WebhookListener,
} from './listener.js';
import { signatureHeader } from './signature.js';

const SECRET = 'whsec_listener-test-secret';
const NOW = new Date('2026-06-09T12:00:00.000Z');
const TIMESTAMP = NOW.getTime() / 1000;

const event = {
  id: 'evt_0123456789abcdef0123456789abcdef',
  type: 'case.created',
  api_version: '2026-06-09',
  created_at: '2026-06-09T11:59:59.000Z',
  data: {
    account_id: 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
    group_id: null,
    object: { id: 'DKE623260', type: 'case' },
    subject_name: 'Zoë 中村',
  },
};
const body = JSON.stringify(event);

function deliveryHeaders(signedBody: string, secrets = [SECRET]) {
  return {
    'content-type': 'application/json',
    'service-event-id': event.id,
    'service-delivery-id': 'whd_1',
    'service-timestamp': String(TIMESTAMP),
    'service-signature': signatureHeader(secrets, TIMESTAMP, signedBody),
  };
}

let listener: WebhookListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start(options: { status?: 200 | 204 } = {}) {
  const received: ReceivedWebhook[] = [];
  listener = await startWebhookListener({
    port: 0,
    secrets: ['whsec_other', SECRET],
    now: () => NOW,
    onDelivery: (delivery) => received.push(delivery),
    ...options,
  });
  return { received, url: listener.url };
}

describe('startWebhookListener', () => {
  it('answers 200 to a correctly signed delivery and reports the verified event', async () => {
    const { received, url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(`${url}hooks/casescreen`, {
      method: 'POST',
      headers: deliveryHeaders(body),
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(received).toEqual([
      {
        receivedAt: NOW,
        eventId: event.id,
        deliveryId: 'whd_1',
        outcome: { verified: true, event },
      },
    ]);
  });

  it('answers 204 when told to', async () => {
    const { url } = await start({ status: 204 });
    const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(body), body });
    expect(response.status).toBe(204);
  });

  it('answers 400 with the reason to a tampered delivery, and reports it', async () => {
    const { received, url } = await start();
    const tampered = body.replace('DKE623260', 'DKE000000');
    const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(body), body: tampered });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'bad_signature', message: expect.any(String) },
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      eventId: event.id,
      outcome: { verified: false, code: 'bad_signature' },
    });
  });

  it('answers 400 to an unsigned POST and 405 to anything but a POST', async () => {
    const { received, url } = await start();
    const unsigned = await fetch(url, { method: 'POST', body });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ error: { code: 'malformed_header' } });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(received.map((delivery) => delivery.outcome.verified)).toEqual([false]);
  });

  it('refuses a body over the cap with 413', async () => {
    const { received, url } = await start();
    const huge = 'x'.repeat(MAX_BODY_BYTES + 1);
    const response = await fetch(url, { method: 'POST', headers: deliveryHeaders(huge), body: huge }).catch(
      // The listener may close the connection before the client has sent everything.
      (error: Error) => error,
    );
    if (!(response instanceof Error)) expect(response.status).toBe(413);
    expect(received).toMatchObject([{ outcome: { verified: false, code: 'body_too_large' } }]);
  });

  it('stops listening on close', async () => {
    const { url } = await start();
    await listener!.close();
    listener = undefined;
    await expect(fetch(url, { method: 'POST', body })).rejects.toThrow();
  });
});
