import {
  CHECK_DECISION_REQUEST_EXAMPLE,
  CREATED_CASE_EXAMPLE,
  DECIDED_CASE_EXAMPLE,
  DECIDED_CHECK_EXAMPLE,
} from '../../api/examples.js';
import type { IdempotencyContext } from '../../api/idempotentExecution.js';
import { valueOrThrow } from '../../api/rejections.js';
import { type ApiRoute, defineRoute } from '../../api/route.js';
import { keyRequester } from '../caseAccess.js';
import { addMaterial, decideCase, decideCheck, reviewMatch } from '../caseService.js';
import { type CreateCaseInput, createCase } from '../createCase.js';
import {
  CaseReferenceParams,
  CheckReferenceParams,
  CreateCaseBody,
  type CreateCaseRequest,
  caseNotFound,
  checkNotFound,
  DecisionBody,
  MatchIdParams,
  MatchReviewBody,
  MaterialBody,
  matchNotFound,
} from './caseRequestSchemas.js';
import { caseResource, checkResource, matchResource, materialResource } from './caseResources.js';
import type { CaseRouteDependencies } from './caseRouteDependencies.js';
import { Case, CaseMaterial, Check, Match } from './caseSchemas.js';

/**
 * The case workflow's mutations (spec: POST /v1/cases, the match review, the check and case
 * decisions, materials; docs/cases.md, "Endpoints"). Each parses the request, calls the use case
 * (src/cases/caseService.ts, createCase.ts) with the request's deterministic event ids, and shapes
 * the case the command left (read-your-writes, no read model in between).
 */

/** Present on every POST and PATCH: the pipeline claims the Idempotency-Key before the handler runs. */
function requireIdempotency(idempotency: IdempotencyContext | undefined): IdempotencyContext {
  if (!idempotency) throw new Error('A mutating route ran without an idempotency context');
  return idempotency;
}

function createCaseInput(body: CreateCaseRequest): CreateCaseInput {
  const { subject } = body;
  return {
    subject: {
      mode: subject.mode,
      subjectReference: subject.subject_reference ?? null,
      type: subject.type,
      name: subject.name,
      countries: subject.countries,
      birthDate: subject.birth_date,
      externalReference: subject.external_reference,
      metadata: subject.metadata,
    },
    case: {
      groupId: body.case.group_id ?? null,
      ownerUserId: body.case.owner_user_id ?? null,
      collaboratorUserIds: body.case.collaborator_user_ids,
      externalReference: body.case.external_reference ?? null,
      notes: body.case.notes ?? null,
      metadata: body.case.metadata,
    },
    checks: { types: body.checks.types, screeningProfileId: body.checks.screening_profile_id ?? null },
    monitoring: {
      enable: body.monitoring.enable,
      ownerUserId: body.monitoring.owner_user_id ?? null,
      collaboratorUserIds: body.monitoring.collaborator_user_ids,
    },
  };
}

export function caseCommandRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/cases',
      operationId: 'createCase',
      summary: 'Create a case and queue its checks',
      description:
        'Creates or reuses the subject, creates the case at once with one queued check per requested type, and runs the checks asynchronously. Refused with 503 `source_unavailable`, creating nothing, when a requested check type has no current source or a stale one.',
      tag: 'Cases',
      scopes: ['cases:create'],
      body: CreateCaseBody,
      response: Case,
      successStatuses: [201],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429, 503],
      examples: { response: CREATED_CASE_EXAMPLE },
      async handle({ key, body, idempotency }) {
        const { key: idempotencyKey, recovered, eventId } = requireIdempotency(idempotency);
        const state = valueOrThrow(
          await createCase(deps, { key, idempotencyKey, recovered, eventId }, createCaseInput(body)),
        );
        return { status: 201, data: caseResource(state, key) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/matches/:match_id/review',
      operationId: 'reviewMatch',
      summary: 'Record the review of a match',
      description:
        'Any review status may follow any other. Changing the review of a match whose check is decided withdraws that decision and reopens a decided case.',
      tag: 'Matches',
      scopes: ['matches:review'],
      params: MatchIdParams,
      body: MatchReviewBody,
      response: Match,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 409, 429],
      async handle({ key, params, body, idempotency }) {
        const { match } = valueOrThrow(
          await reviewMatch(
            deps,
            keyRequester(key),
            { matchId: params.match_id, reviewStatus: body.review_status, note: body.note ?? null },
            requireIdempotency(idempotency).eventId,
          ),
          matchNotFound(params.match_id),
        );
        return { status: 200, data: matchResource(match) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/checks/:check_reference/decision',
      operationId: 'decideCheck',
      summary: 'Record the decision on a check',
      description:
        'The check must be completed (409 while queued or running, or when it failed) and every match reviewed (422 with `details.pending_review_match_ids`). Decision notes are required (422) for `conditional_pass` and `fail`, for `pass` with a confirmed match, and when more than one match is confirmed. Agent keys are refused (403).',
      tag: 'Checks',
      scopes: ['checks:decide'],
      refusesAgents: true,
      params: CheckReferenceParams,
      body: DecisionBody,
      response: Check,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      examples: { body: CHECK_DECISION_REQUEST_EXAMPLE, response: DECIDED_CHECK_EXAMPLE },
      async handle({ key, params, body, idempotency }) {
        const { state, check } = valueOrThrow(
          await decideCheck(
            deps,
            keyRequester(key),
            {
              checkReference: params.check_reference,
              decision: body.decision,
              notes: body.decision_notes ?? null,
            },
            requireIdempotency(idempotency).eventId,
          ),
          checkNotFound(params.check_reference),
        );
        return { status: 200, data: checkResource(state, check, key) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/cases/:case_reference/decision',
      operationId: 'decideCase',
      summary: 'Record the final decision on a case',
      description:
        'Every check must be completed (409 otherwise) and decided (422 with `details.pending_review_check_references`); a case with a failed check can only be decided `fail`. Decision notes are required (422) for `conditional_pass` and `fail`, and for `pass` after an adverse check decision or a confirmed match. Agent keys are refused (403).',
      tag: 'Cases',
      scopes: ['case_decisions:write'],
      requiresFinalDecision: true,
      params: CaseReferenceParams,
      body: DecisionBody,
      response: Case,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      examples: { response: DECIDED_CASE_EXAMPLE },
      async handle({ key, params, body, idempotency }) {
        const { state } = valueOrThrow(
          await decideCase(
            deps,
            keyRequester(key),
            {
              caseReference: params.case_reference,
              decision: body.decision,
              notes: body.decision_notes ?? null,
            },
            requireIdempotency(idempotency).eventId,
          ),
          caseNotFound(params.case_reference),
        );
        return { status: 200, data: caseResource(state, key) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/cases/:case_reference/materials',
      operationId: 'addCaseMaterial',
      summary: 'Add a note or a link to a case',
      description:
        'A case-wide material: a note (`type` `note`), a link (`link`) or both (`mixed`), available at once. Accepted in any case state. File uploads are not accepted.',
      tag: 'Cases',
      scopes: ['materials:write'],
      params: CaseReferenceParams,
      body: MaterialBody,
      response: CaseMaterial,
      successStatuses: [201],
      errorStatuses: [400, 401, 403, 404, 409, 429],
      async handle({ key, params, body, idempotency }) {
        const { state, material } = valueOrThrow(
          await addMaterial(
            deps,
            keyRequester(key),
            {
              caseReference: params.case_reference,
              title: body.title,
              note: body.note ?? null,
              url: body.url ?? null,
            },
            requireIdempotency(idempotency).eventId,
          ),
          caseNotFound(params.case_reference),
        );
        return { status: 201, data: materialResource(state, material) };
      },
    }),
  ];
}
