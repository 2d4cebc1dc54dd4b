import { createHash } from 'node:crypto';
import type { Queryable } from '../db/sql.js';

/**
 * The stored bytes of case file attachments (table `case_attachment_files`, migration 8). The case
 * stream's MaterialAdded event describes an attachment; this store keeps its content. Written
 * before the event is appended, so every attachment an event names can be read back.
 */

/** The largest file `casescreen cases attach` accepts: 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface AttachmentFile {
  attachmentId: string;
  caseReference: string;
  filename: string;
  contentType: string;
  byteSize: number;
  /** Lower-case hex SHA-256 of the content. */
  sha256: string;
  content: Buffer;
  createdAt: Date;
}

export function sha256Hex(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Stores a file's bytes under its attachment id; size and hash are computed from the content. */
export async function saveAttachmentFile(
  db: Queryable,
  file: Pick<AttachmentFile, 'attachmentId' | 'caseReference' | 'filename' | 'contentType' | 'content'>,
): Promise<AttachmentFile> {
  const { rows } = await db.query(
    `INSERT INTO case_attachment_files
       (attachment_id, case_reference, filename, content_type, byte_size, sha256, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${COLUMNS}`,
    [
      file.attachmentId,
      file.caseReference,
      file.filename,
      file.contentType,
      file.content.length,
      sha256Hex(file.content),
      file.content,
    ],
  );
  return toAttachmentFile(rows[0]);
}

export async function findAttachmentFile(
  db: Queryable,
  attachmentId: string,
): Promise<AttachmentFile | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM case_attachment_files WHERE attachment_id = $1`, [
    attachmentId,
  ]);
  return rows[0] ? toAttachmentFile(rows[0]) : undefined;
}

const COLUMNS =
  'attachment_id, case_reference, filename, content_type, byte_size, sha256, content, created_at';

function toAttachmentFile(row: Record<string, unknown>): AttachmentFile {
  return {
    attachmentId: row.attachment_id as string,
    caseReference: row.case_reference as string,
    filename: row.filename as string,
    contentType: row.content_type as string,
    byteSize: Number(row.byte_size),
    sha256: row.sha256 as string,
    content: row.content as Buffer,
    createdAt: row.created_at as Date,
  };
}
