import type { Credentials } from '@eventstore/db-client';
// The client's own parser (the one EventStoreDBClient.connectionString runs), not exported by its index.
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';

/**
 * Credentials to send with every append, so the client takes its one-call-per-append path (see
 * EsdbEventStoreOptions.appendCredentials): the connection string's user when it names one; on an
 * insecure connection, where the client ignores call credentials, a placeholder. A secure connection
 * without a user (X.509 user certificates) has nothing to send: undefined, and the batch path stays
 * (docs/event-store.md says to name a user).
 */
export function appendCredentialsFor(clientConnectionString: string): Credentials | undefined {
  const settings = parseConnectionString(clientConnectionString);
  if (settings.defaultCredentials) return settings.defaultCredentials;
  if (settings.tls === false) return { username: 'insecure', password: 'ignored' };
  return undefined;
}
