import { z } from 'zod';
import { DateTime, Uuid } from '../../api/commonSchemas.js';
import {
  API_CLIENT_ACTOR_EXAMPLE,
  ATTACHMENT_EXAMPLE,
  BIRTH_DATE_EXAMPLE,
  CASE_EVENT_EXAMPLE,
  CASE_EXAMPLE,
  CHECK_EXAMPLE,
  MATCH_EXAMPLE,
  MATERIAL_EXAMPLE,
  SOURCE_EXAMPLE,
  SUBJECT_EXAMPLE,
} from '../../api/examples.js';
import { PUBLIC_CASE_EVENT_TYPES } from '../caseEventView.js';

/**
 * The spec's case resources (Subject in a case, Case, Check, Match, CaseMaterial, Actor,
 * CaseEvent). Responses are checked against them, and the OpenAPI document is generated from them.
 * Free-form objects (metadata, reason, supporting_fields, review, payload) are records.
 */

const FreeForm = z.record(z.string(), z.unknown());

export const Actor = z
  .object({
    type: z.enum(['human', 'api_client', 'agent', 'system']),
    id: z.string().nullable(),
    display_name: z.string().nullable(),
  })
  .meta({ id: 'Actor', examples: [API_CLIENT_ACTOR_EXAMPLE] });

export const BirthDate = z
  .object({
    year: z.number().int().min(1800).max(2100),
    month: z.number().int().min(1).max(12).optional(),
    day: z.number().int().min(1).max(31).optional(),
  })
  .meta({ id: 'BirthDate', examples: [BIRTH_DATE_EXAMPLE] });

export const CaseSubject = z
  .object({
    subject_reference: z.string().nullable(),
    type: z.string(),
    display_name: z.string(),
    countries: z.array(z.string()).optional(),
    birth_date: BirthDate.nullable().optional(),
    external_reference: z.string().nullable().optional(),
    metadata: FreeForm.optional(),
  })
  .meta({ id: 'Subject', examples: [SUBJECT_EXAMPLE] });

export const Source = z
  .object({
    name: z.string(),
    url: z.string().meta({ format: 'uri' }).nullable(),
    dataset: z.string().nullable(),
    priority: z.number().int(),
  })
  .meta({ id: 'Source', examples: [SOURCE_EXAMPLE] });

export const Match = z
  .object({
    match_id: z.string(),
    rank: z.number().int(),
    display_name: z.string(),
    review_status: z.enum(['pending_review', 'confirmed_match', 'not_relevant']),
    score: z.number(),
    matched_entity_id: z.string().nullable().optional(),
    match_type: z.string().optional(),
    reason: FreeForm.optional(),
    sources: z.array(Source).optional(),
    source_record_ref: z.string().nullable().optional(),
    source_snapshot_id: z.string().nullable().optional(),
    supporting_fields: FreeForm.optional(),
    review: FreeForm.optional(),
    created_at: DateTime.optional(),
  })
  .meta({ id: 'Match', examples: [MATCH_EXAMPLE] });

export const CHECK_DECISIONS = [
  'pending_review',
  'no_matches_found',
  'pass',
  'conditional_pass',
  'fail',
] as const;

export const Check = z
  .object({
    check_reference: z.string().regex(/^[A-Z]{3}[0-9]{6}-[0-9]+$/),
    id: z.string(),
    type: z.enum(['pep', 'sanctions', 'business_entity_risk']),
    lifecycle_status: z.enum(['queued', 'running', 'completed', 'failed']),
    decision: z.enum(CHECK_DECISIONS),
    match_count: z.number().int(),
    top_score: z.number().nullable().optional(),
    case_reference: z.string().optional(),
    subject_reference: z.string().nullable().optional(),
    decision_notes: z.string().nullable().optional(),
    decided_at: DateTime.nullable().optional(),
    decided_by: z.string().nullable().optional(),
    checked_at: DateTime.nullable().optional(),
    started_at: DateTime.nullable().optional(),
    created_at: DateTime.optional(),
    updated_at: DateTime.optional(),
    failure_reason: z.string().nullable().optional(),
    result_summary: FreeForm.optional(),
    matches: z.array(Match).optional(),
    blocking_items: z.array(z.string()).optional(),
    allowed_actions: z.array(z.string()).optional(),
    recommended_next_actions: z.array(z.string()).optional(),
  })
  .meta({ id: 'Check', examples: [CHECK_EXAMPLE] });

export const CaseMaterialAttachment = z
  .object({
    attachment_id: z.string(),
    filename: z.string(),
    content_type: z.string(),
    byte_size: z.number().int(),
    status: z.enum(['pending', 'available', 'failed']),
    finalized_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'CaseMaterialAttachment', examples: [ATTACHMENT_EXAMPLE] });

export const CaseMaterial = z
  .object({
    material_id: z.string(),
    case_reference: z.string(),
    type: z.enum(['note', 'link', 'file', 'mixed']),
    status: z.enum(['pending', 'available', 'failed']),
    title: z.string().nullable(),
    attachments: z.array(CaseMaterialAttachment),
    created_at: DateTime,
    updated_at: DateTime,
    group_id: Uuid.optional(),
    note: z.string().nullable().optional(),
    url: z.string().meta({ format: 'uri' }).nullable().optional(),
    check_id: z.string().nullable().optional(),
    created_by_actor: Actor.optional(),
    finalized_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'CaseMaterial', examples: [MATERIAL_EXAMPLE] });

export const Case = z
  .object({
    case_reference: z.string().regex(/^[A-Z]{3}[0-9]{6}$/),
    subject: CaseSubject,
    group_id: Uuid,
    owner_user_id: Uuid.nullable().optional(),
    collaborator_user_ids: z.array(Uuid).optional(),
    decision: z.enum(['pending_decision', 'pass', 'conditional_pass', 'fail']),
    decision_notes: z.string().nullable().optional(),
    resolved_by: z.string().nullable().optional(),
    resolved_at: DateTime.nullable().optional(),
    external_reference: z.string().nullable().optional(),
    metadata: FreeForm.optional(),
    checks: z.array(Check),
    materials: z.array(CaseMaterial).optional(),
    created_by_actor: Actor.optional(),
    created_at: DateTime,
    updated_at: DateTime,
    allowed_actions: z.array(z.string()).optional(),
    recommended_next_actions: z.array(z.string()).optional(),
    requires_human_review: z.boolean().optional(),
  })
  .meta({ id: 'Case', examples: [CASE_EXAMPLE] });

export const CaseEvent = z
  .object({
    event_id: z.string(),
    event_type: z.enum(PUBLIC_CASE_EVENT_TYPES),
    object_type: z.literal('case'),
    object_reference: z.string(),
    case_reference: z.string(),
    group_id: Uuid,
    actor: Actor,
    summary: z.string(),
    payload: FreeForm,
    occurred_at: DateTime,
    created_at: DateTime,
    comment: z.string().nullable().optional(),
  })
  .meta({ id: 'CaseEvent', examples: [CASE_EVENT_EXAMPLE] });
