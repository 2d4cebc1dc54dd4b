import type { Migration } from './index.js';

/**
 * Workspace data (docs/workspace.md): accounts, their groups, users and memberships, and API keys.
 * - Every account has exactly one default group: the partial unique index allows at most one, and
 *   the account is only ever created together with it (createWorkspace, one transaction).
 * - Memberships carry the account id so that composite foreign keys keep the group and the user in
 *   the same account.
 * - API keys store a SHA-256 of the secret part, never the raw key; key_prefix is the non-secret
 *   lookup handle. The scope list repeats SCOPES of src/workspace/keyPolicy.ts on purpose: a shipped
 *   migration must not change meaning when that constant changes.
 * - group_ids lists the groups a key may see, explicitly and never empty; array elements cannot have
 *   foreign keys, so a trigger keeps them inside the key's account.
 */
export const workspaceMigration: Migration = {
  id: 3,
  name: 'workspace',
  sql: `
CREATE TABLE accounts (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL CHECK (length(btrim(name)) > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE groups (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts (id),
  name        text NOT NULL CHECK (length(btrim(name)) > 0),
  slug        text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 63),
  is_default  boolean NOT NULL DEFAULT false,
  description text NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT groups_account_slug UNIQUE (account_id, slug),
  CONSTRAINT groups_account_id UNIQUE (account_id, id)
);
CREATE UNIQUE INDEX groups_one_default ON groups (account_id) WHERE is_default;

CREATE TABLE users (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts (id),
  email        text NOT NULL CHECK (email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  display_name text NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_account_id UNIQUE (account_id, id)
);
CREATE UNIQUE INDEX users_account_email ON users (account_id, lower(email));

CREATE TABLE group_memberships (
  account_id uuid NOT NULL,
  group_id   uuid NOT NULL,
  user_id    uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, user_id),
  FOREIGN KEY (account_id, group_id) REFERENCES groups (account_id, id),
  FOREIGN KEY (account_id, user_id) REFERENCES users (account_id, id)
);
CREATE INDEX group_memberships_user ON group_memberships (user_id);

CREATE TABLE api_keys (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id     uuid NOT NULL CONSTRAINT api_keys_account REFERENCES accounts (id),
  name           text NOT NULL CHECK (length(btrim(name)) > 0),
  key_prefix     text NOT NULL CONSTRAINT api_keys_prefix UNIQUE CHECK (key_prefix ~ '^[0-9a-f]{16}$'),
  key_hash       bytea NOT NULL CHECK (octet_length(key_hash) = 32),
  scopes         text[] NOT NULL CHECK (
    cardinality(scopes) > 0 AND scopes <@ ARRAY[
      'cases:create', 'cases:read', 'case_decisions:write', 'materials:write', 'events:read',
      'checks:read', 'checks:decide', 'matches:review', 'monitoring:read', 'monitoring:write'
    ]::text[]
  ),
  actor_type     text NOT NULL CHECK (actor_type IN ('api_client', 'agent')),
  final_decision boolean NOT NULL DEFAULT false,
  group_ids      uuid[] NOT NULL CHECK (cardinality(group_ids) > 0),
  expires_at     timestamptz NULL,
  revoked_at     timestamptz NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz NULL,
  CONSTRAINT api_keys_agent_no_final_decision CHECK (NOT (actor_type = 'agent' AND final_decision))
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE FUNCTION api_keys_check_groups() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF EXISTS (
    SELECT 1 FROM unnest(NEW.group_ids) AS g(id)
     WHERE NOT EXISTS (SELECT 1 FROM groups WHERE groups.id = g.id AND groups.account_id = NEW.account_id)
  ) THEN
    RAISE EXCEPTION 'api key % lists a group outside its account %', NEW.id, NEW.account_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'api_keys_groups_in_account';
  END IF;
  RETURN NEW;
END;
$fn$;
CREATE TRIGGER api_keys_groups_in_account BEFORE INSERT OR UPDATE OF account_id, group_ids ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_check_groups();
`,
};
