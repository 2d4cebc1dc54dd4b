import { z } from 'zod';
import { Uuid } from '../../api/commonSchemas.js';
import { CASE_EVENT_PAGE_EXAMPLE } from '../../api/examples.js';
import { type ApiRoute, defineRoute } from '../../api/route.js';
import { ApiError } from '../../server/errors.js';
import { isCaseVisibleToKey } from '../caseAccess.js';
import { caseEventResources, PUBLIC_CASE_EVENT_TYPES, type PublicCaseEventType } from '../caseEventView.js';
import { loadCase } from '../caseStream.js';
import { CASE_REFERENCE } from '../references.js';
import { CaseReferenceParams, caseNotFound } from './caseRequestSchemas.js';
import type { CaseRouteDependencies } from './caseRouteDependencies.js';
import { CaseEvent } from './caseSchemas.js';

/**
 * GET /v1/cases/{case_reference}/events: the allowlisted workflow events of a case, newest first,
 * read from the case's stream itself (not from a read model), so a page never lags behind the case.
 *
 * Pagination is keyed on the stream revision, which never changes for an event and only grows for
 * new ones: a cursor names the revision of the last event it returned, and the next page holds the
 * visible events below it. Events appended between two pages have higher revisions and cannot shift
 * or repeat anything (docs/case-events-and-cli.md, "Cursor").
 */

export const DEFAULT_EVENT_PAGE = 25;
export const MAX_EVENT_PAGE = 100;

// No examples for the filter and the cursor: the reference page's "Try it out" would send them, and a
// cursor belongs to one case and filter.
const EventsQuery = z.object({
  event_type: z
    .enum(PUBLIC_CASE_EVENT_TYPES)
    .optional()
    .meta({ description: 'Only events of this CaseEventType.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_EVENT_PAGE)
    .default(DEFAULT_EVENT_PAGE)
    .meta({ description: 'Events per page, 1 to 100; default 25.', examples: [3] }),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page, with the same `event_type`.' }),
});

const CaseEventPage = z
  .object({
    case_reference: z.string(),
    group_id: Uuid.optional(),
    events: z.array(CaseEvent),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'CaseEventPage', examples: [CASE_EVENT_PAGE_EXAMPLE] });

/** What a cursor stands for. Its encoding is opaque to clients and may change between versions. */
export interface EventCursor {
  caseReference: string;
  eventType: PublicCaseEventType | null;
  /** Stream revision of the last event of the page: the next page is the visible events below it. */
  revision: number;
}

const CursorPayload = z.strictObject({
  v: z.literal(1),
  c: z.string().regex(CASE_REFERENCE),
  t: z.enum(PUBLIC_CASE_EVENT_TYPES).nullable(),
  r: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export function encodeEventCursor(cursor: EventCursor): string {
  const payload: z.input<typeof CursorPayload> = {
    v: 1,
    c: cursor.caseReference,
    t: cursor.eventType,
    r: cursor.revision,
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The cursor a string encodes, or undefined when it is not one this service wrote. */
export function decodeEventCursor(value: string): EventCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  // Only the canonical encoding: a decoder drops stray trailing characters, a cursor must not.
  if (bytes.toString('base64url') !== value) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = CursorPayload.safeParse(json);
  if (!parsed.success) return undefined;
  return { caseReference: parsed.data.c, eventType: parsed.data.t, revision: parsed.data.r };
}

function invalidCursor(message: string): ApiError {
  return ApiError.invalidRequest('The request has invalid fields.', { fieldErrors: { cursor: [message] } });
}

/** The cursor of the request, checked against the case and filter it is used with (400 otherwise). */
function cursorFor(
  value: string | undefined,
  caseReference: string,
  eventType: PublicCaseEventType | null,
): EventCursor | undefined {
  if (value === undefined) return undefined;
  const cursor = decodeEventCursor(value);
  if (!cursor) throw invalidCursor('Not a cursor of this endpoint; pass a `next_cursor` as returned.');
  if (cursor.caseReference !== caseReference) {
    throw invalidCursor('The cursor belongs to another case.');
  }
  if (cursor.eventType !== eventType) {
    throw invalidCursor('The cursor was issued for another event_type filter; use the same filter.');
  }
  return cursor;
}

export function caseEventRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/cases/:case_reference/events',
      operationId: 'listCaseEvents',
      summary: 'List the workflow events of a case, newest first',
      description:
        'Allowlisted case workflow events; internal audit-only events are excluded. Pages are stable while new events arrive: a `next_cursor` continues below the last event returned, so no event is lost or repeated. `next_cursor` is null on the last page. A cursor is only valid for the case and the `event_type` filter it was issued for.',
      tag: 'Cases',
      scopes: ['events:read'],
      params: CaseReferenceParams,
      query: EventsQuery,
      response: CaseEventPage,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ key, params, query }) {
        const caseReference = params.case_reference;
        const eventType = query.event_type ?? null;
        const cursor = cursorFor(query.cursor, caseReference, eventType);

        const loaded = await loadCase(deps.store, caseReference);
        const state = loaded.state;
        // A case of another account or outside the key's groups reads exactly like a missing one.
        if (!state || !isCaseVisibleToKey(state, key)) throw caseNotFound(caseReference)();

        const below = cursor?.revision ?? Number.POSITIVE_INFINITY;
        const matching = caseEventResources(loaded.events)
          .filter((event) => event.revision < below && (eventType === null || event.event_type === eventType))
          .reverse();
        const page = matching.slice(0, query.limit);
        const last = page.at(-1);
        const nextCursor =
          last && matching.length > page.length
            ? encodeEventCursor({ caseReference, eventType, revision: last.revision })
            : null;
        return {
          status: 200,
          data: {
            case_reference: caseReference,
            group_id: state.groupId,
            events: page.map(({ revision: _revision, ...event }) => event),
            next_cursor: nextCursor,
          },
        };
      },
    }),
  ];
}
