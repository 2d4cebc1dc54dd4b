import { EventStoreDBClient } from '@eventstore/db-client';
// The client's own parser, the one EventStoreDBClient.connectionString runs (not exported by its index).
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { describe, expect, it } from 'vitest';
import { appendCredentialsFor } from './appendCredentials.js';
import { ACCEPTED_SCHEMES, acceptedScheme, toClientConnectionString } from './connectionString.js';
import { createEsdbEventStore } from './esdbEventStore.js';

const REST = 'admin:changeit@node1:2113,node2:2114?tls=false&nodePreference=leader&defaultDeadline=5000';

describe('EventStoreDB connection strings', () => {
  for (const scheme of ACCEPTED_SCHEMES) {
    it(`${scheme}:// reaches the client as the same settings`, async () => {
      const discover = scheme.endsWith('+discover');
      const given = `${scheme}://${REST}`;
      const settings = parseConnectionString(toClientConnectionString(given));
      expect(settings).toEqual(parseConnectionString(`${discover ? 'esdb+discover' : 'esdb'}://${REST}`));
      expect(settings).toMatchObject({
        dnsDiscover: discover,
        defaultCredentials: { username: 'admin', password: 'changeit' },
        hosts: [
          { address: 'node1', port: 2113 },
          { address: 'node2', port: 2114 },
        ],
        tls: false,
        nodePreference: 'leader',
        defaultDeadline: 5000,
      });
      // Opening the store builds the client from it (no connection is made until the first call).
      await createEsdbEventStore({ connectionString: given }).close();
    });
  }

  it('is needed: the 6.2.1 client throws on the KurrentDB schemes as they are', () => {
    for (const scheme of ACCEPTED_SCHEMES.filter((s) => !s.startsWith('esdb'))) {
      expect(() => EventStoreDBClient.connectionString(`${scheme}://localhost:2113?tls=false`)).toThrow(
        /esdb:\/\//,
      );
    }
  });

  it('refuses every other scheme, naming the accepted ones', () => {
    for (const other of [
      'http://localhost:2113',
      'tcp://localhost:1113',
      'ESDB://localhost',
      'localhost:2113',
    ]) {
      expect(acceptedScheme(other)).toBeNull();
      expect(() => toClientConnectionString(other)).toThrow(/esdb:\/\/, esdb\+discover:\/\/, kurrentdb:\/\//);
    }
  });

  it('rewrites only the scheme', () => {
    expect(toClientConnectionString(' kdb://kdb:kdb@kdb.example:2113?connectionName=kdb://x ')).toBe(
      'esdb://kdb:kdb@kdb.example:2113?connectionName=kdb://x',
    );
  });

  it("sends the connection string's user with appends, a placeholder when insecure, nothing for certificate users", () => {
    expect(appendCredentialsFor('esdb://ops:s%40cret@node1:2113')).toEqual({
      username: 'ops',
      password: 's@cret',
    });
    expect(appendCredentialsFor('esdb://node1:2113?tls=false')).toMatchObject({
      username: expect.any(String),
    });
    expect(
      appendCredentialsFor('esdb://node1:2113?userCertFile=/certs/u.crt&userKeyFile=/certs/u.key'),
    ).toBeUndefined();
  });
});
