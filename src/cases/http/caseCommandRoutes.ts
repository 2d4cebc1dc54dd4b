import {
  CHECK_DECISION_REQUEST_EXAMPLE,
  CREATED_CASE_EXAMPLE,
  DECIDED_CASE_EXAMPLE,
  DECIDED_CHECK_EXAMPLE,
} from '../../api/examples.js';
import type { IdempotencyContext } from '../../api/idempotentExecution.js';
import { type ApiRoute, defineRoute } from '../../api/route.js';
import type { ApiError } from '../../server/errors.js';
import type { ApiKeyRecord } from '../../workspace/apiKeys.js';
import type { CaseCommand } from '../caseDecide.js';
import { type CaseState, findCheck, findMatch } from '../caseState.js';
import { loadCase, runCaseCommand } from '../caseStream.js';
import { createCase } from '../createCase.js';
import { caseReferenceOfCheck, caseReferenceOfMatch, materialId } from '../references.js';
import {
  caseNotFound,
  checkNotFound,
  isVisible,
  keyActor,
  matchNotFound,
  rejectionError,
} from './caseCommandSupport.js';
import {
  CaseReferenceParams,
  CheckReferenceParams,
  CreateCaseBody,
  DecisionBody,
  MatchIdParams,
  MatchReviewBody,
  MaterialBody,
} from './caseRequestSchemas.js';
import { caseResource, checkResource, matchResource, materialResource } from './caseResources.js';
import type { CaseRouteDependencies } from './caseRouteDependencies.js';
import { Case, CaseMaterial, Check, Match } from './caseSchemas.js';

/**
 * The case workflow's mutations (spec: POST /v1/cases, the match review, the check and case
 * decisions, materials; docs/cases.md, "Endpoints"). Each runs one command of the case domain on
 * the case's stream with the request's deterministic event ids, and answers from the state the
 * command left (read-your-writes, no read model in between).
 */

/** Present on every POST and PATCH: the pipeline claims the Idempotency-Key before the handler runs. */
function requireIdempotency(idempotency: IdempotencyContext | undefined): IdempotencyContext {
  if (!idempotency) throw new Error('A mutating route ran without an idempotency context');
  return idempotency;
}

/**
 * Runs a command on a case the key can see. A case in another group or account is answered with
 * `notFound`, exactly as a missing one.
 */
async function runOnVisibleCase(
  deps: CaseRouteDependencies,
  key: ApiKeyRecord,
  caseReference: string,
  command: CaseCommand,
  idempotency: IdempotencyContext | undefined,
  notFound: () => ApiError,
): Promise<CaseState> {
  const { eventId } = requireIdempotency(idempotency);
  const { state } = await loadCase(deps.store, caseReference);
  if (!isVisible(state, key)) throw notFound();
  const outcome = await runCaseCommand(deps.store, caseReference, command, eventId);
  if (!outcome.ok) throw rejectionError(outcome.rejection, notFound);
  return outcome.state;
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
        const state = await createCase(deps, key, body, requireIdempotency(idempotency));
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
        const notFound = matchNotFound(params.match_id);
        const caseReference = caseReferenceOfMatch(params.match_id);
        if (!caseReference) throw notFound();
        const state = await runOnVisibleCase(
          deps,
          key,
          caseReference,
          {
            type: 'ReviewMatch',
            now: new Date().toISOString(),
            matchId: params.match_id,
            reviewStatus: body.review_status,
            note: body.note ?? null,
            actor: keyActor(key),
          },
          idempotency,
          notFound,
        );
        const found = findMatch(state, params.match_id);
        if (!found) throw notFound();
        return { status: 200, data: matchResource(found.match) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/checks/:check_reference/decision',
      operationId: 'decideCheck',
      summary: 'Record the decision on a check',
      description:
        'The check must be completed (409 while queued or running, or when it failed) and every match reviewed (422 with `details.pending_review_match_ids`). Decision notes are required (422) for `conditional_pass` and `fail`, for `pass` with a confirmed match, and when more than one match is confirmed.',
      tag: 'Checks',
      scopes: ['checks:decide'],
      params: CheckReferenceParams,
      body: DecisionBody,
      response: Check,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      examples: { body: CHECK_DECISION_REQUEST_EXAMPLE, response: DECIDED_CHECK_EXAMPLE },
      async handle({ key, params, body, idempotency }) {
        const notFound = checkNotFound(params.check_reference);
        const state = await runOnVisibleCase(
          deps,
          key,
          caseReferenceOfCheck(params.check_reference),
          {
            type: 'DecideCheck',
            now: new Date().toISOString(),
            checkReference: params.check_reference,
            decision: body.decision,
            notes: body.decision_notes ?? null,
            actor: keyActor(key),
          },
          idempotency,
          notFound,
        );
        const check = findCheck(state, params.check_reference);
        if (!check) throw notFound();
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
        const state = await runOnVisibleCase(
          deps,
          key,
          params.case_reference,
          {
            type: 'DecideCase',
            now: new Date().toISOString(),
            decision: body.decision,
            notes: body.decision_notes ?? null,
            actor: keyActor(key),
          },
          idempotency,
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
        const notFound = caseNotFound(params.case_reference);
        const id = materialId(requireIdempotency(idempotency).eventId(0));
        const state = await runOnVisibleCase(
          deps,
          key,
          params.case_reference,
          {
            type: 'AddMaterial',
            now: new Date().toISOString(),
            materialId: id,
            title: body.title,
            note: body.note ?? null,
            url: body.url ?? null,
            attachments: [],
            actor: keyActor(key),
          },
          idempotency,
          notFound,
        );
        const material = state.materials.find((candidate) => candidate.materialId === id);
        if (!material)
          throw new Error(`Material ${id} missing from case ${params.case_reference} after adding it`);
        return { status: 201, data: materialResource(state, material) };
      },
    }),
  ];
}
