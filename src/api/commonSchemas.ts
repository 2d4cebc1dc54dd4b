import { z } from 'zod';
import { API_ERROR_CODES, API_ERROR_CONDITIONS, API_ERROR_STATUS } from '../server/errors.js';
import { EXAMPLE_REQUEST_ID, errorExample } from './examples.js';

/** Schemas every resource shares; `.meta({id})` makes them named components in the OpenAPI document. */
export const Uuid = z.uuid();
export const DateTime = z.iso.datetime({ offset: true });

const RequestId = z.string().meta({
  description: "This request's id, also in the `X-Request-Id` header; quote it when reporting a problem.",
  examples: [EXAMPLE_REQUEST_ID],
});

/** The codes with their statuses and conditions, as the enum's description (a Markdown table). */
function errorCodeTable(): string {
  const rows = API_ERROR_CODES.map(
    (code) => `| \`${code}\` | ${API_ERROR_STATUS[code]} | ${API_ERROR_CONDITIONS[code]} |`,
  );
  return ['Machine-readable error code:', '', '| Code | Status | When |', '|---|---|---|', ...rows].join(
    '\n',
  );
}

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).meta({ description: errorCodeTable() }),
      message: z
        .string()
        .meta({ description: 'What went wrong, written for the developer reading the log.' }),
      details: z.unknown().meta({
        description: 'null, or more about the failure; validation failures carry `fieldErrors`.',
      }),
    }),
    meta: z.object({ request_id: RequestId }),
  })
  .meta({ id: 'ErrorEnvelope', examples: [errorExample('not_found')] });

/** `{data, meta}` around a resource schema. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: z.object({ request_id: RequestId }) });
}
