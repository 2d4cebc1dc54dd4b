import type { Migration } from './index.js';

/**
 * The bytes of case file attachments (`casescreen cases attach`, docs/case-events-and-cli.md).
 * The case stream records the attachment (id, filename, content type, size, SHA-256) in its
 * MaterialAdded event; this table holds the content, keyed by the attachment id the event names.
 * A row is written, and committed, before the event is appended, so an event never points at a
 * missing file; a crash in between leaves a row no event names, which is harmless. Rows are never
 * updated: the checks tie the stored size and hash format to what the event records.
 */
export const caseAttachmentsMigration: Migration = {
  id: 8,
  name: 'case_attachments',
  sql: `
CREATE TABLE case_attachment_files (
  attachment_id  text PRIMARY KEY CHECK (attachment_id ~ '^attachment_[0-9a-f]{24}$'),
  case_reference text NOT NULL CHECK (case_reference ~ '^[A-Z]{3}[0-9]{6}$'),
  filename       text NOT NULL CHECK (length(filename) BETWEEN 1 AND 255),
  content_type   text NOT NULL CHECK (length(content_type) BETWEEN 3 AND 255),
  byte_size      bigint NOT NULL CHECK (byte_size >= 0),
  sha256         text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content        bytea NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT case_attachment_files_size CHECK (octet_length(content) = byte_size)
);
CREATE INDEX case_attachment_files_case ON case_attachment_files (case_reference);
`,
};
