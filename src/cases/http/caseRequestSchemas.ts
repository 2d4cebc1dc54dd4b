import { z } from 'zod';
import {
  CASE_DECISION_REQUEST_EXAMPLE,
  CREATE_CASE_REQUEST_EXAMPLE,
  EXAMPLE_CASE_REFERENCE,
  EXAMPLE_CHECK_REFERENCE,
  EXAMPLE_MATCH_ID,
  MATCH_REVIEW_REQUEST_EXAMPLE,
  MATERIAL_REQUEST_EXAMPLE,
} from '../../api/examples.js';
import { CHECK_TYPES } from '../../screening/checkTypes.js';
import { ENTITY_KINDS } from '../../screening/model/listedEntity.js';
import { countryCode } from '../../screening/parsers/countries.js';
import { ApiError } from '../../server/errors.js';
import { notFoundText } from '../../shared/notFound.js';
import { CASE_REFERENCE, CHECK_REFERENCE } from '../references.js';

/**
 * The request schemas of the case mutation endpoints (spec: POST /v1/cases, the two decision
 * PATCHes, the match review, materials; docs/cases.md, "Endpoints"). They validate the requests
 * (every problem at once, in `details.fieldErrors`) and describe them in the OpenAPI document.
 * Rules that need stored state (group visibility, membership, the subject) are the handlers'.
 */

export const FreeForm = z.record(z.string(), z.unknown());

/** User and group ids: any case on input, lower case from then on (the database's spelling). */
export const Id = z.uuid().transform((id) => id.toLowerCase());

/** Collaborators: at most 50, each once (the same id in upper and lower case is one user). */
export const UserIds = z
  .array(Id)
  .max(50)
  .superRefine((ids, ctx) => {
    const seen = new Map<string, number>();
    ids.forEach((id, index) => {
      const first = seen.get(id);
      if (first === undefined) seen.set(id, index);
      else ctx.addIssue({ code: 'custom', path: [index], message: `Duplicate of item ${first}.` });
    });
  });

/**
 * ISO 3166-1 alpha-2 in either case, stored upper case; plus XK (Kosovo), the user-assigned code
 * every sanctions list uses. Exactly two letters: no trimming, no names, no alpha-3.
 */
const CountryCode = z
  .string()
  .length(2)
  .superRefine((code, ctx) => {
    if (code.length === 2 && countryCode(code.toUpperCase()) !== code.toUpperCase()) {
      ctx.addIssue({ code: 'custom', message: `"${code}" is not an ISO 3166-1 alpha-2 country code.` });
    }
  })
  .transform((code) => code.toUpperCase());

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The spec's BirthDate: a year, optionally a month, optionally a day of that month. A day needs a
 * month, and the three must make a real date (no 30 February; 29 February in leap years only).
 * `null` for month or day means the same as leaving it out. The output has a fixed key order, so
 * equal dates compare equal however they were written.
 */
export const BirthDateInput = z
  .strictObject({
    year: z.number().int().min(1800).max(2100),
    month: z.number().int().min(1).max(12).nullish(),
    day: z.number().int().min(1).max(31).nullish(),
  })
  .superRefine(({ year, month, day }, ctx) => {
    if (day == null) return;
    if (month == null) {
      ctx.addIssue({ code: 'custom', path: ['day'], message: 'A day needs a month.' });
    } else if (day > daysInMonth(year, month)) {
      ctx.addIssue({
        code: 'custom',
        path: ['day'],
        message: `${year}-${String(month).padStart(2, '0')} has ${daysInMonth(year, month)} days.`,
      });
    }
  })
  .transform(({ year, month, day }) => ({
    year,
    ...(month != null && { month }),
    ...(day != null && { day }),
  }));

const SUBJECT_DETAIL_FIELDS = [
  'type',
  'name',
  'countries',
  'birth_date',
  'external_reference',
  'metadata',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const SubjectInput = z
  .strictObject({
    mode: z.enum(['create_or_reuse', 'existing']).default('create_or_reuse').meta({
      description:
        "`create_or_reuse`: reuse the subject named by `subject_reference` or `external_reference` (updating its details) or create one. `existing`: screen a stored subject as it is. Only subjects of groups the key can see are reused: another group's subject is `not_found`, and its external reference gets a new subject.",
    }),
    subject_reference: z.string().nullish(),
    type: z.enum(ENTITY_KINDS).optional().meta({
      default: 'person',
      description:
        'Defaults to `person` for a new subject; a reused subject keeps its type unless one is sent.',
    }),
    name: z
      .string()
      .max(240)
      .nullish()
      .refine((name) => name == null || name.trim().length > 0, 'Must not be blank.'),
    countries: z.array(CountryCode).max(20).optional().meta({
      default: [],
      description: 'ISO 3166-1 alpha-2 codes in either case; stored upper case, duplicates once.',
    }),
    birth_date: BirthDateInput.nullish(),
    external_reference: z
      .string()
      .min(1)
      .max(200)
      .nullish()
      .meta({ description: "The caller's id of the party; a subject's external reference never changes." }),
    metadata: FreeForm.optional(),
  })
  .superRefine(
    (subject, ctx) => {
      // Runs even when a field above failed, so the report holds every problem: read defensively.
      const given = (field: string) => subject[field as keyof typeof subject] != null;
      const mode = subject.mode ?? 'create_or_reuse';
      if (mode === 'existing') {
        if (!given('subject_reference')) {
          ctx.addIssue({
            code: 'custom',
            path: ['subject_reference'],
            message: 'Required with mode "existing".',
          });
        }
        for (const field of SUBJECT_DETAIL_FIELDS) {
          if (given(field)) {
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: 'Not allowed with mode "existing": the stored subject is screened as it is.',
            });
          }
        }
      } else if (!given('subject_reference') && !given('name')) {
        ctx.addIssue({
          code: 'custom',
          path: ['name'],
          message: 'Required unless subject_reference names a stored subject.',
        });
      }
    },
    { when: (payload) => isRecord(payload.value) },
  );

export const CaseInput = z.strictObject({
  group_id: Id.nullish().meta({
    description:
      "Defaults to the key's default group: the account's default group if the key can see it, else the key's first group by name.",
  }),
  owner_user_id: Id.nullish(),
  collaborator_user_ids: UserIds.default([]),
  external_reference: z.string().min(1).max(200).nullish(),
  notes: z.string().max(4000).nullish(),
  metadata: FreeForm.default({}),
});

/** `checks.types` and monitoring's `check_types`: 1 to 3 check types, each once (a repeat under its index). */
export const CheckTypeList = z
  .array(z.enum(CHECK_TYPES))
  .min(1)
  .max(3)
  .superRefine((types, ctx) => {
    types.forEach((type, index) => {
      if (types.indexOf(type) !== index) {
        ctx.addIssue({ code: 'custom', path: [index], message: `"${type}" is listed twice.` });
      }
    });
  });

export const ChecksInput = z.strictObject({
  types: CheckTypeList,
  screening_profile_id: z.string().max(120).nullish().meta({
    description: '`default` when null or absent; an unknown profile is refused (422).',
  }),
});

export const MonitoringInput = z.strictObject({
  enable: z.boolean().default(false),
  owner_user_id: Id.nullish(),
  collaborator_user_ids: UserIds.default([]),
});

export const CreateCaseBody = z
  .strictObject({
    subject: SubjectInput,
    case: CaseInput.default({ collaborator_user_ids: [], metadata: {} }),
    checks: ChecksInput,
    monitoring: MonitoringInput.default({ enable: false, collaborator_user_ids: [] }),
  })
  .meta({ examples: [CREATE_CASE_REQUEST_EXAMPLE] });

export type CreateCaseRequest = z.output<typeof CreateCaseBody>;
export type SubjectRequest = CreateCaseRequest['subject'];

export const FINAL_DECISIONS = ['pass', 'conditional_pass', 'fail'] as const;

/** The body of both decision PATCHes (checks and cases). */
export const DecisionBody = z
  .strictObject({
    decision: z.enum(FINAL_DECISIONS),
    decision_notes: z.string().max(4000).nullish(),
  })
  .meta({ examples: [CASE_DECISION_REQUEST_EXAMPLE] });

export const MatchReviewBody = z
  .strictObject({
    review_status: z.enum(['pending_review', 'confirmed_match', 'not_relevant']),
    note: z.string().max(2000).nullish(),
  })
  .meta({ examples: [MATCH_REVIEW_REQUEST_EXAMPLE] });

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const MaterialBody = z
  .strictObject({
    title: z
      .string()
      .min(1)
      .max(160)
      .refine((title) => title.trim().length > 0, 'Must not be blank.'),
    note: z
      .string()
      .max(4000)
      .nullish()
      .refine((note) => note == null || note.trim().length > 0, 'Must not be blank; send null for no note.'),
    url: z
      .string()
      .max(1000)
      .refine(isHttpUrl, 'Must be an absolute http or https URL.')
      .nullish()
      .meta({ format: 'uri' }),
  })
  .superRefine(
    (material, ctx) => {
      if (material.note == null && material.url == null) {
        for (const field of ['note', 'url']) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'Send a note, a url or both.' });
        }
      }
    },
    { when: (payload) => isRecord(payload.value) },
  )
  .meta({ examples: [MATERIAL_REQUEST_EXAMPLE] });

// One 404 per kind of object, whatever the reason it is not there: an object outside the key's
// account or groups gets exactly the answer a missing one gets, so references cannot be probed.
export const caseNotFound = (caseReference: string) => () =>
  ApiError.notFound(notFoundText('case', caseReference));
export const checkNotFound = (checkReference: string) => () =>
  ApiError.notFound(notFoundText('check', checkReference));
export const matchNotFound = (matchId: string) => () => ApiError.notFound(notFoundText('match', matchId));

export const CaseReferenceParams = z.object({
  case_reference: z
    .string()
    .regex(CASE_REFERENCE, 'A case reference is three capital letters and six digits, e.g. ABC123456.')
    .meta({ description: 'The case reference, `^[A-Z]{3}[0-9]{6}$`.', examples: [EXAMPLE_CASE_REFERENCE] }),
});

export const CheckReferenceParams = z.object({
  check_reference: z
    .string()
    .regex(CHECK_REFERENCE, 'A check reference is a case reference, a hyphen and a number, e.g. ABC123456-1.')
    .meta({
      description: 'The check reference, `^[A-Z]{3}[0-9]{6}-[0-9]+$`.',
      examples: [EXAMPLE_CHECK_REFERENCE],
    }),
});

/** Any string: one that is no match id names no match (404), like an unknown one. */
export const MatchIdParams = z.object({
  match_id: z.string().meta({
    description: 'The `match_id` of a match, as a check lists it: `<check_reference>.<12 hex digits>`.',
    examples: [EXAMPLE_MATCH_ID],
  }),
});
