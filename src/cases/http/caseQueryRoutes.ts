import { type ApiRoute, defineRoute } from '../../api/route.js';
import { readCaseForKey } from '../caseReadModel.js';
import { findCheck } from '../caseState.js';
import { caseReferenceOfCheck } from '../references.js';
import {
  CaseReferenceParams,
  CheckReferenceParams,
  caseNotFound,
  checkNotFound,
} from './caseRequestSchemas.js';
import { caseResource, checkResource } from './caseResources.js';
import type { CaseRouteDependencies } from './caseRouteDependencies.js';
import { Case, Check } from './caseSchemas.js';

/**
 * GET /v1/cases/{case_reference} and GET /v1/checks/{check_reference}: the case's state from the
 * `case_views` read model caught up with its stream (src/cases/caseReadModel.ts), so a GET right
 * after a mutation reflects it; the resources are formed for the calling key (caseResources.ts). The
 * read carries the request's rate-limit hit: one statement per GET on the PostgreSQL event store.
 */
export function caseQueryRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  const { pool, store } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/cases/:case_reference',
      operationId: 'getCase',
      summary: 'Get a case',
      description:
        'The case with its subject, checks, matches, materials, decisions and the guidance for this key ' +
        '(`allowed_actions`, `recommended_next_actions`, `requires_human_review`). Always reflects every ' +
        'write acknowledged before the request. A case outside the key’s account or groups is `not_found`.',
      tag: 'Cases',
      scopes: ['cases:read'],
      params: CaseReferenceParams,
      response: Case,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      rateLimitRidesOnRead: true,
      async handle({ key, params, rateLimitRider }) {
        const state = await readCaseForKey(pool, store, params.case_reference, key, rateLimitRider);
        if (!state) throw caseNotFound(params.case_reference)();
        return { status: 200, data: caseResource(state, key) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checks/:check_reference',
      operationId: 'getCheck',
      summary: 'Get a check',
      description:
        'The check with its match evidence, current decision, blocking items and the guidance for this ' +
        'key. Always reflects every write acknowledged before the request. A check of a case outside ' +
        'the key’s account or groups is `not_found`.',
      tag: 'Checks',
      scopes: ['checks:read'],
      params: CheckReferenceParams,
      response: Check,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      rateLimitRidesOnRead: true,
      async handle({ key, params, rateLimitRider }) {
        const reference = params.check_reference;
        const state = await readCaseForKey(pool, store, caseReferenceOfCheck(reference), key, rateLimitRider);
        const check = state && findCheck(state, reference);
        if (!state || !check) throw checkNotFound(reference)();
        return { status: 200, data: checkResource(state, check, key) };
      },
    }),
  ];
}
