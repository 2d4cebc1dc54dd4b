import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenToChannel } from '../../../src/db/notifications.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * A listener whose database does not answer at first (the service started before PostgreSQL, or
 * during a restart): it keeps trying with fresh sessions, and listens once the database answers.
 * The database is reached through a proxy that drops every connection until the test opens it.
 */
describe('listenToChannel when the first connection fails', () => {
  let db: TestDatabase;
  let proxy: net.Server;
  let proxiedUrl = '';
  let open = false;
  let refused = 0;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    const target = new URL(db.url);
    proxy = net.createServer((client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      if (!open) {
        refused++;
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address() as net.AddressInfo;
    const proxied = new URL(db.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(address.port);
    proxiedUrl = proxied.toString();
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => proxy?.close(() => resolve()));
    await db?.drop();
  });

  it('tries again until the database answers, then delivers notifications', async () => {
    const received: unknown[] = [];
    let connected = 0;
    const listening = listenToChannel(proxiedUrl, 'listen_retry_test', {
      notification: (payload) => received.push(payload),
      connected: () => connected++,
    });
    try {
      await eventually(async () => expect(refused).toBeGreaterThanOrEqual(2));
      expect(connected).toBe(0);

      open = true;
      await eventually(async () => expect(connected).toBe(1));
      await db.pool.query(`SELECT pg_notify('listen_retry_test', '"hello"')`);
      await eventually(async () => expect(received).toEqual(['hello']));
    } finally {
      await listening.close();
    }
  });

  it('stops trying when closed before the database ever answered', async () => {
    open = false;
    const before = refused;
    const listening = listenToChannel(proxiedUrl, 'listen_retry_closed', {
      notification: () => {},
      connected: () => {
        throw new Error('never connected');
      },
    });
    await eventually(async () => expect(refused).toBeGreaterThan(before));
    // Resolves (the loop leaves its backoff at once) instead of trying forever.
    await listening.close();
  });
});
