/**
 * The connection-string schemes the service accepts for EventStoreDB, and what the client is given.
 * @eventstore/db-client 6.2.1 parses only `esdb://` and `esdb+discover://` and throws on anything
 * else when the store is opened; KurrentDB's documentation and newer clients write `kurrentdb://`
 * (short: `kdb://`) for the same format, so those are rewritten to the scheme this client knows.
 */
const CLIENT_SCHEME_OF = {
  esdb: 'esdb',
  'esdb+discover': 'esdb+discover',
  kurrentdb: 'esdb',
  'kurrentdb+discover': 'esdb+discover',
  kdb: 'esdb',
  'kdb+discover': 'esdb+discover',
} as const;

export type AcceptedScheme = keyof typeof CLIENT_SCHEME_OF;

export const ACCEPTED_SCHEMES = Object.keys(CLIENT_SCHEME_OF) as AcceptedScheme[];

const SCHEME = /^\s*([a-z+]+):\/\//;

/** The scheme of a connection string the service accepts, or null. */
export function acceptedScheme(connectionString: string): AcceptedScheme | null {
  const scheme = SCHEME.exec(connectionString)?.[1];
  return scheme !== undefined && Object.hasOwn(CLIENT_SCHEME_OF, scheme) ? (scheme as AcceptedScheme) : null;
}

/** The same connection string in the scheme @eventstore/db-client 6.2.1 parses. */
export function toClientConnectionString(connectionString: string): string {
  const scheme = acceptedScheme(connectionString);
  if (scheme === null) {
    throw new TypeError(
      `EventStoreDB connection string must start with one of ${ACCEPTED_SCHEMES.map((s) => `${s}://`).join(', ')}`,
    );
  }
  return connectionString.trim().replace(`${scheme}://`, `${CLIENT_SCHEME_OF[scheme]}://`);
}
