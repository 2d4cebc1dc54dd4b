import type { ApiErrorCode } from '../server/errors.js';
import { notFoundText } from '../shared/notFound.js';
import type { WebhookEventType } from '../webhooks/webhookEvents.js';

/**
 * The examples of the OpenAPI document: one onboarding case followed through the recommended flow.
 * The values are those of a real run of the service against the UN Security Council list of
 * February 2026 (a customer who is listed there as KPi.033), so references, ids, scores and the
 * match explanation have the shapes a client will see. Each example is checked against its schema
 * by src/api/openapi.spec.ts.
 */

const ACCOUNT_ID = 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da';
const DEFAULT_GROUP_ID = '1874f46d-7842-47ea-bad4-ff8022860f0e';
const EDD_GROUP_ID = 'b388f863-e822-4ea8-bed9-14fb3bf95b9f';
const OWNER_USER_ID = '23dfc42a-d16a-463d-ae81-50b09b8f811e';
const CASE_REFERENCE = 'DKE623260';
const CHECK_REFERENCE = `${CASE_REFERENCE}-1`;
const MATCH_ID = `${CHECK_REFERENCE}.f551879b2c8b`;
const SUBJECT_REFERENCE = 'sub_c39b386d9900a0f01634e486';
const UN_SNAPSHOT_ID = 'snap_1862cd3ab3f970e6e483dc1ca4db5fe5';
const MATERIAL_ID = 'material_c881cc98edf79dee6b713b4d';

const CREATED_AT = '2026-11-25T09:14:53.789Z';
const STARTED_AT = '2026-11-25T09:14:53.839Z';
const CHECKED_AT = '2026-11-25T09:14:53.853Z';
const REVIEWED_AT = '2026-11-25T09:32:02.751Z';
const MATERIAL_AT = '2026-11-25T09:33:41.778Z';
const CHECK_DECIDED_AT = '2026-11-25T09:35:12.803Z';
const CASE_DECIDED_AT = '2026-11-25T10:02:27.829Z';

export const EXAMPLE_REQUEST_ID = 'req_b911e0a30d41425d9083544e0e43b69f';
export const EXAMPLE_IDEMPOTENCY_KEY = 'crm-onboarding-2026-58215';
export const EXAMPLE_CASE_REFERENCE = CASE_REFERENCE;
export const EXAMPLE_CHECK_REFERENCE = CHECK_REFERENCE;
export const EXAMPLE_MATCH_ID = MATCH_ID;

export const GROUP_EXAMPLE = {
  id: DEFAULT_GROUP_ID,
  account_id: ACCOUNT_ID,
  name: 'Default',
  slug: 'default',
  is_default: true,
  description: null,
  created_at: '2026-11-02T08:00:34.406Z',
  updated_at: '2026-11-02T08:00:34.406Z',
};

export const GROUP_LIST_EXAMPLE = {
  groups: [
    GROUP_EXAMPLE,
    {
      id: EDD_GROUP_ID,
      account_id: ACCOUNT_ID,
      name: 'Enhanced due diligence',
      slug: 'enhanced-due-diligence',
      is_default: false,
      description: 'High-risk customers and confirmed list matches, reviewed by the second line.',
      created_at: '2026-11-03T13:27:50.118Z',
      updated_at: '2026-11-03T13:27:50.118Z',
    },
  ],
};

export const API_CLIENT_ACTOR_EXAMPLE = {
  type: 'api_client' as const,
  id: '711eeba3-e805-41eb-a99e-546dc26e1015',
  display_name: 'onboarding-service',
};

export const BIRTH_DATE_EXAMPLE = { year: 1964, month: 7, day: 17 };

export const SUBJECT_EXAMPLE = {
  subject_reference: SUBJECT_REFERENCE,
  type: 'person',
  display_name: 'Ri Won Ho',
  countries: ['KP'],
  birth_date: BIRTH_DATE_EXAMPLE,
  external_reference: 'cust-58213',
  metadata: {},
};

export const SOURCE_EXAMPLE = {
  name: 'UN Security Council Consolidated List',
  url: 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
  dataset: 'un_sc_sanctions',
  priority: 1,
};

const PENDING_MATCH = {
  match_id: MATCH_ID,
  rank: 1,
  display_name: 'RI WON HO',
  review_status: 'pending_review' as const,
  score: 0.99,
  matched_entity_id: 'un_sc_sanctions:6908555',
  match_type: 'exact_name',
  reason: {
    summary: 'listed name "RI WON HO" scores 1; birth date exact; shared country KP',
    name: {
      score: 1,
      subject_name: 'Ri Won Ho',
      matched_name: 'RI WON HO',
      matched_name_kind: 'primary',
      alignment: [
        { kind: 'exact', score: 1, subject: 'ri', record: 'ri' },
        { kind: 'exact', score: 1, subject: 'won', record: 'won' },
        { kind: 'exact', score: 1, subject: 'ho', record: 'ho' },
      ],
    },
    scored: [
      { feature: 'name', value: 0.9, detail: 'listed name "RI WON HO" scores 1' },
      { feature: 'birth_date', value: 0.06, detail: 'birth date exact' },
      { feature: 'country', value: 0.03, detail: 'shared country KP' },
    ],
    penalised: [],
  },
  sources: [SOURCE_EXAMPLE],
  source_record_ref: 'KPi.033',
  source_snapshot_id: UN_SNAPSHOT_ID,
  supporting_fields: {
    name: { status: 'agreed', subject: 'Ri Won Ho', record: 'RI WON HO', detail: 'exact_name' },
    type: { status: 'agreed', subject: 'person', record: 'person' },
    countries: { status: 'agreed', subject: ['KP'], record: ['KP'] },
    birth_date: { status: 'agreed', subject: '1964-07-17', record: ['1964-07-17'], detail: 'exact' },
    identifiers: { status: 'missing', subject: [], record: ['passport:381310014'] },
  },
  review: {},
  created_at: CHECKED_AT,
};

export const MATCH_REVIEW_NOTE = 'Name, date of birth and nationality agree with UN entry KPi.033.';

/** The match once confirmed: the answer of PATCH /v1/matches/{match_id}/review. */
export const MATCH_EXAMPLE = {
  ...PENDING_MATCH,
  review_status: 'confirmed_match' as const,
  review: {
    status: 'confirmed_match',
    note: MATCH_REVIEW_NOTE,
    reviewed_by: API_CLIENT_ACTOR_EXAMPLE,
    reviewed_at: REVIEWED_AT,
  },
};

const CHECK_BASE = {
  check_reference: CHECK_REFERENCE,
  id: 'c3b672d6-5d94-5761-b339-e45bb83d5b4e',
  type: 'sanctions' as const,
  case_reference: CASE_REFERENCE,
  subject_reference: SUBJECT_REFERENCE,
  created_at: CREATED_AT,
  failure_reason: null,
};

const QUEUED_CHECK = {
  ...CHECK_BASE,
  lifecycle_status: 'queued' as const,
  decision: 'pending_review' as const,
  match_count: 0,
  top_score: null,
  decision_notes: null,
  decided_at: null,
  decided_by: null,
  checked_at: null,
  started_at: null,
  updated_at: CREATED_AT,
  result_summary: { screening_profile_id: 'default', attempts: 0 },
  matches: [],
  blocking_items: ['check_queued'],
  allowed_actions: ['add_material'],
  recommended_next_actions: ['wait_for_checks'],
};

const COMPLETED_RESULT_SUMMARY = {
  screening_profile_id: 'default',
  threshold: 0.63,
  source_snapshots: [
    { id: UN_SNAPSHOT_ID, dataset: 'un_sc_sanctions', version: 1 },
    { id: 'snap_b4a41221750ea8a5c3d0072e95e29fb5', dataset: 'us_ofac_cons', version: 1 },
  ],
  match_count: 1,
  top_score: 0.99,
  attempts: 1,
};

/** The check once screened, its one match waiting for review: what GET /v1/checks/{ref} shows then. */
export const CHECK_EXAMPLE = {
  ...CHECK_BASE,
  lifecycle_status: 'completed' as const,
  decision: 'pending_review' as const,
  match_count: 1,
  top_score: 0.99,
  decision_notes: null,
  decided_at: null,
  decided_by: null,
  checked_at: CHECKED_AT,
  started_at: STARTED_AT,
  updated_at: CHECKED_AT,
  result_summary: COMPLETED_RESULT_SUMMARY,
  matches: [PENDING_MATCH],
  blocking_items: [`match_pending_review:${MATCH_ID}`],
  allowed_actions: ['review_matches', 'add_material'],
  recommended_next_actions: ['review_matches'],
};

const CHECK_DECISION_NOTES = 'Confirmed match with a UN-designated person (KPi.033).';

/** The answer of PATCH /v1/checks/{ref}/decision. */
export const DECIDED_CHECK_EXAMPLE = {
  ...CHECK_EXAMPLE,
  decision: 'fail' as const,
  decision_notes: CHECK_DECISION_NOTES,
  decided_at: CHECK_DECIDED_AT,
  decided_by: `api_client:${API_CLIENT_ACTOR_EXAMPLE.id}`,
  updated_at: CHECK_DECIDED_AT,
  matches: [MATCH_EXAMPLE],
  blocking_items: [],
  allowed_actions: ['review_matches', 'decide_check', 'add_material'],
  recommended_next_actions: [],
};

export const ATTACHMENT_EXAMPLE = {
  attachment_id: 'attachment_5b9e23d21b1f93a74e8fa5f3',
  filename: 'passport-scan-ri-won-ho.pdf',
  content_type: 'application/pdf',
  byte_size: 184_320,
  status: 'available' as const,
  finalized_at: '2026-11-25T09:21:05.402Z',
  created_at: '2026-11-25T09:21:05.402Z',
};

const MATERIAL_TITLE = 'UN Security Council press release';
const MATERIAL_NOTE =
  'Designation of RI WON HO, DPRK Ministry of State Security official stationed in Syria.';
const MATERIAL_URL = 'https://press.un.org/en/2016/sc12603.doc.htm';

export const MATERIAL_EXAMPLE = {
  material_id: MATERIAL_ID,
  case_reference: CASE_REFERENCE,
  type: 'mixed' as const,
  status: 'available' as const,
  title: MATERIAL_TITLE,
  attachments: [],
  created_at: MATERIAL_AT,
  updated_at: MATERIAL_AT,
  group_id: DEFAULT_GROUP_ID,
  note: MATERIAL_NOTE,
  url: MATERIAL_URL,
  check_id: null,
  created_by_actor: API_CLIENT_ACTOR_EXAMPLE,
  finalized_at: MATERIAL_AT,
};

const CASE_BASE = {
  case_reference: CASE_REFERENCE,
  subject: SUBJECT_EXAMPLE,
  group_id: DEFAULT_GROUP_ID,
  owner_user_id: OWNER_USER_ID,
  collaborator_user_ids: [],
  external_reference: 'onb-2026-58213',
  metadata: { channel: 'web' },
  created_by_actor: API_CLIENT_ACTOR_EXAMPLE,
  created_at: CREATED_AT,
  requires_human_review: true,
};

/** The answer of POST /v1/cases: the case at once, its checks queued. */
export const CREATED_CASE_EXAMPLE = {
  ...CASE_BASE,
  decision: 'pending_decision' as const,
  decision_notes: null,
  resolved_by: null,
  resolved_at: null,
  checks: [QUEUED_CHECK],
  materials: [],
  updated_at: CREATED_AT,
  allowed_actions: ['add_material'],
  recommended_next_actions: ['wait_for_checks'],
};

/** The case once screened, a match waiting for review: what GET /v1/cases/{ref} shows then. */
export const CASE_EXAMPLE = {
  ...CREATED_CASE_EXAMPLE,
  checks: [CHECK_EXAMPLE],
  updated_at: CHECKED_AT,
  allowed_actions: ['add_material', 'review_matches'],
  recommended_next_actions: ['review_matches'],
};

const CASE_DECISION_NOTES =
  'Customer is designated under UN Security Council resolution 2321 (2016); onboarding refused and reported.';

/** The answer of PATCH /v1/cases/{ref}/decision. */
export const DECIDED_CASE_EXAMPLE = {
  ...CASE_BASE,
  decision: 'fail' as const,
  decision_notes: CASE_DECISION_NOTES,
  resolved_by: `api_client:${API_CLIENT_ACTOR_EXAMPLE.id}`,
  resolved_at: CASE_DECIDED_AT,
  checks: [DECIDED_CHECK_EXAMPLE],
  materials: [MATERIAL_EXAMPLE],
  updated_at: CASE_DECIDED_AT,
  // Nothing is left to do; a changed review or check decision would reopen the case (docs/cases.md).
  allowed_actions: ['add_material', 'review_matches', 'decide_check', 'record_case_decision'],
  recommended_next_actions: [],
};

const eventBase = {
  object_type: 'case' as const,
  object_reference: CASE_REFERENCE,
  case_reference: CASE_REFERENCE,
  group_id: DEFAULT_GROUP_ID,
  actor: API_CLIENT_ACTOR_EXAMPLE,
};

export const CASE_EVENT_EXAMPLE = {
  ...eventBase,
  event_id: 'cfa6c0b6-6b18-5ad5-ab79-8ce41ce1dca0',
  event_type: 'check_decision_recorded' as const,
  summary: `Check ${CHECK_REFERENCE} decided fail`,
  payload: { check_reference: CHECK_REFERENCE, decision: 'fail', previous_decision: 'pending_review' },
  occurred_at: CHECK_DECIDED_AT,
  created_at: '2026-11-25T09:35:12.808Z',
  comment: CHECK_DECISION_NOTES,
};

export const CASE_EVENT_PAGE_EXAMPLE = {
  case_reference: CASE_REFERENCE,
  group_id: DEFAULT_GROUP_ID,
  events: [
    {
      ...eventBase,
      event_id: 'fa311f36-c457-54a5-8210-60ad8f1c8153',
      event_type: 'case_decision_recorded' as const,
      summary: 'Case decided fail',
      payload: { decision: 'fail', previous_decision: 'pending_decision' },
      occurred_at: CASE_DECIDED_AT,
      created_at: '2026-11-25T10:02:27.833Z',
      comment: CASE_DECISION_NOTES,
    },
    CASE_EVENT_EXAMPLE,
    {
      ...eventBase,
      event_id: 'def5d3c3-c4d7-5e61-8b7d-084b6729c662',
      event_type: 'case_reference_added' as const,
      summary: `Material "${MATERIAL_TITLE}" added`,
      payload: {
        material_id: MATERIAL_ID,
        material_type: 'mixed',
        title: MATERIAL_TITLE,
        url: MATERIAL_URL,
        attachments: [],
      },
      occurred_at: MATERIAL_AT,
      created_at: '2026-11-25T09:33:41.781Z',
      comment: MATERIAL_NOTE,
    },
  ],
  next_cursor: 'eyJ2IjoxLCJjIjoiREtFNjIzMjYwIiwidCI6bnVsbCwiciI6NX0',
};

// ---- requests ------------------------------------------------------------------------------

export const CREATE_CASE_REQUEST_EXAMPLE = {
  subject: {
    type: 'person' as const,
    name: 'Ri Won Ho',
    countries: ['KP'],
    birth_date: BIRTH_DATE_EXAMPLE,
    external_reference: 'cust-58213',
  },
  case: {
    owner_user_id: OWNER_USER_ID,
    external_reference: 'onb-2026-58213',
    metadata: { channel: 'web' },
  },
  checks: { types: ['sanctions' as const] },
};

export const MATCH_REVIEW_REQUEST_EXAMPLE = {
  review_status: 'confirmed_match' as const,
  note: MATCH_REVIEW_NOTE,
};

export const CHECK_DECISION_REQUEST_EXAMPLE = {
  decision: 'fail' as const,
  decision_notes: CHECK_DECISION_NOTES,
};
export const CASE_DECISION_REQUEST_EXAMPLE = {
  decision: 'fail' as const,
  decision_notes: CASE_DECISION_NOTES,
};

export const MATERIAL_REQUEST_EXAMPLE = { title: MATERIAL_TITLE, note: MATERIAL_NOTE, url: MATERIAL_URL };

// ---- webhooks ------------------------------------------------------------------------------

/** A webhook example in both modes: the summary payload is the expanded one without `fields`. */
function webhookExample(
  type: WebhookEventType,
  id: string,
  createdAt: string,
  object: { id: string; type: string },
  fields: Record<string, unknown>,
  groupId: string = DEFAULT_GROUP_ID,
) {
  const summary = {
    id,
    type,
    api_version: '2026-06-09',
    created_at: createdAt,
    data: { account_id: ACCOUNT_ID, group_id: groupId, object },
  };
  return { summary, expanded: { ...summary, data: { ...summary.data, ...fields } } };
}

const FAILED_CASE_REFERENCE = 'HPX204518';
const FAILED_CHECK_REFERENCE = `${FAILED_CASE_REFERENCE}-1`;
const MONITORING_CONFIG_ID = 'mon_5de781a30e18dc6cad8e069d';

/**
 * One example of each event type, from the same onboarding case where there is one (ids are
 * `webhookEventId` of the domain event: check.decision_updated and case.decision_recorded derive
 * from the case events in CASE_EVENT_PAGE_EXAMPLE). check.failed is another case's check, and
 * monitoring.alert_created a later alert on the same subject.
 */
export const WEBHOOK_EXAMPLES: Record<
  WebhookEventType,
  { summary: Record<string, unknown>; expanded: Record<string, unknown> }
> = {
  'case.created': webhookExample(
    'case.created',
    'evt_87ecac6ab0e9cdd1fe4c4f66e204116a',
    CREATED_AT,
    { id: CASE_REFERENCE, type: 'case' },
    {
      case_reference: CASE_REFERENCE,
      external_reference: CASE_BASE.external_reference,
      subject_reference: SUBJECT_REFERENCE,
      subject_name: SUBJECT_EXAMPLE.display_name,
      subject_type: SUBJECT_EXAMPLE.type,
      check_references: [CHECK_REFERENCE],
    },
  ),
  'check.completed': webhookExample(
    'check.completed',
    'evt_f28e0999fd92be4bead638de557da30f',
    CHECKED_AT,
    { id: CHECK_REFERENCE, type: 'check' },
    {
      case_reference: CASE_REFERENCE,
      check_reference: CHECK_REFERENCE,
      lifecycle_status: 'completed',
      match_count: 1,
      screening_record_id: CHECK_BASE.id,
      screening_type: CHECK_BASE.type,
      subject_name: SUBJECT_EXAMPLE.display_name,
    },
  ),
  'check.failed': webhookExample(
    'check.failed',
    'evt_81ae48a1ce692e2fc8f012dbeea7b360',
    '2026-11-26T14:08:19.406Z',
    { id: FAILED_CHECK_REFERENCE, type: 'check' },
    {
      case_reference: FAILED_CASE_REFERENCE,
      check_reference: FAILED_CHECK_REFERENCE,
      lifecycle_status: 'failed',
      failure_reason:
        'screening_error: 3 attempts failed, the last because the database was unavailable or failed; the check was not screened',
      screening_record_id: 'b66e838d-6720-55d1-b2ab-bd95edf2d3f8',
      screening_type: 'pep',
      subject_name: 'Anna Keller',
    },
    EDD_GROUP_ID,
  ),
  'match.reviewed': webhookExample(
    'match.reviewed',
    'evt_bc1bba1840f8f1765dc6a9bc3388b49d',
    REVIEWED_AT,
    { id: MATCH_ID, type: 'match' },
    {
      case_reference: CASE_REFERENCE,
      check_reference: CHECK_REFERENCE,
      match_id: MATCH_ID,
      review_status: 'confirmed_match',
      previous_review_status: 'pending_review',
      matched_name: PENDING_MATCH.display_name,
      reviewed_by: API_CLIENT_ACTOR_EXAMPLE,
    },
  ),
  'check.decision_updated': webhookExample(
    'check.decision_updated',
    'evt_42b40a3fe06dca746dc5745a8d571cf6',
    CHECK_DECIDED_AT,
    { id: CHECK_REFERENCE, type: 'check' },
    {
      case_reference: CASE_REFERENCE,
      check_reference: CHECK_REFERENCE,
      decision: 'fail',
      previous_decision: 'pending_review',
      notes: CHECK_DECISION_NOTES,
      decided_by: API_CLIENT_ACTOR_EXAMPLE,
      withdrawal_cause: null,
    },
  ),
  'case.decision_recorded': webhookExample(
    'case.decision_recorded',
    'evt_08cbb24af3a0911acc40e2c5ba846749',
    CASE_DECIDED_AT,
    { id: CASE_REFERENCE, type: 'case' },
    {
      case_reference: CASE_REFERENCE,
      decision: 'fail',
      previous_decision: 'pending_decision',
      notes: CASE_DECISION_NOTES,
      decided_by: API_CLIENT_ACTOR_EXAMPLE,
    },
  ),
  'monitoring.alert_created': webhookExample(
    'monitoring.alert_created',
    'evt_e6540f00bca7aee5c3564485281b0752',
    '2026-12-03T06:00:41.215Z',
    { id: MONITORING_CONFIG_ID, type: 'monitoring' },
    {
      monitoring_config_id: MONITORING_CONFIG_ID,
      monitoring_run_id: 'run_8186b7035bea2f66ebe27c1f',
      alert_id: 'alt_22ab65a3ce8277f104ebe2ae',
      subject_reference: SUBJECT_REFERENCE,
      screening_type: 'sanctions',
      matched_name: PENDING_MATCH.display_name,
      change_summary: 'The listing of RI WON HO (KPi.033) gained an alias and a passport number.',
    },
  ),
};

/** The delivery headers of the check.completed example. */
export const WEBHOOK_DELIVERY_ID_EXAMPLE = 'whd_3f9a0c6e81d24b7f95a1c0de6b2f4a87';
/** Unix seconds, a moment after the check.completed example happened. */
export const WEBHOOK_TIMESTAMP_EXAMPLE = '1795598094';
export const WEBHOOK_SIGNATURE_EXAMPLE =
  'v1=5b0f2c9d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c';

// ---- errors --------------------------------------------------------------------------------

/** An error body of each code, as the service words it. */
export const ERROR_EXAMPLES: Record<ApiErrorCode, { message: string; details: unknown }> = {
  invalid_request: {
    message: 'The request has invalid fields.',
    details: {
      fieldErrors: {
        'subject.countries.0': ['"XX" is not an ISO 3166-1 alpha-2 country code.'],
        'Idempotency-Key': ['Idempotency-Key header is required'],
      },
    },
  },
  unauthorized: { message: 'A valid API key is required.', details: null },
  forbidden: {
    message:
      'Agent keys cannot record final case decisions; leave the decision to a person or a permitted API client.',
    details: { actor_type: 'agent' },
  },
  not_found: { message: notFoundText('case', CASE_REFERENCE), details: null },
  method_not_allowed: {
    message: 'Method DELETE is not allowed on this path.',
    details: { allowed_methods: ['GET'] },
  },
  idempotency_conflict: {
    message: 'The Idempotency-Key was already used with a different method, path or body.',
    details: null,
  },
  conflict: {
    message: `Check ${CHECK_REFERENCE} is still running; decide it once it has completed.`,
    details: { lifecycle_status: 'running' },
  },
  unprocessable_entity: {
    message: 'The owner and collaborators must be members of the case group.',
    details: { group_id: DEFAULT_GROUP_ID, non_member_user_ids: [OWNER_USER_ID] },
  },
  rate_limited: {
    message: 'This API key made more than 120 requests in the current window; retry after 17 s.',
    details: { limit: 120, retry_after_seconds: 17, reset_at: '2026-11-25T09:15:00.000Z' },
  },
  internal_error: { message: 'An internal error occurred. Please retry later.', details: null },
  source_unavailable: {
    message:
      'The screening sources for pep are missing or stale; no case was created. Retry once the sources are current.',
    details: {
      check_types: ['pep'],
      unavailable: [{ check_type: 'pep', reason: 'stale', stale_datasets: ['us_congress'] }],
      stale_after_ms: 1_209_600_000,
    },
  },
  service_unavailable: {
    message: 'The service is at capacity; retry after 1 s.',
    details: { retry_after_seconds: 1 },
  },
};

export function errorExample(code: ApiErrorCode) {
  return { error: { code, ...ERROR_EXAMPLES[code] }, meta: { request_id: EXAMPLE_REQUEST_ID } };
}

// ---- monitoring ----------------------------------------------------------------------------

export const EXAMPLE_MONITORING_CONFIG_ID = MONITORING_CONFIG_ID;
const ENROLLED_AT = '2026-11-25T10:05:12.417Z';
const BASELINE_RUN_ID = 'run_2b71f0c94e5d8a6113cf0e27';
const ALERT_RUN_ID = 'run_8186b7035bea2f66ebe27c1f';
const ALERT_RUN_AT = '2026-12-03T06:00:40.918Z';
const ALERT_RUN_DONE_AT = '2026-12-03T06:00:41.207Z';
const FOLLOW_UP_CASE_REFERENCE = 'MQT480215';
const FOLLOW_UP_AT = '2026-12-03T06:00:41.642Z';
const UN_SNAPSHOT_V2_ID = 'snap_7d0e4b7f31a2c5e98b6f04d1a3c2e5b7';

export const CREATE_MONITORING_CONFIG_REQUEST_EXAMPLE = {
  subject_reference: SUBJECT_REFERENCE,
  check_types: ['sanctions' as const, 'pep' as const],
  group_id: EDD_GROUP_ID,
  owner_user_id: OWNER_USER_ID,
  collaborator_user_ids: [],
  metadata: { review_cycle: 'quarterly' },
};

export const UPDATE_MONITORING_CONFIG_REQUEST_EXAMPLE = { status: 'paused' as const };

const MONITORING_CONFIG_BASE = {
  monitoring_config_id: MONITORING_CONFIG_ID,
  group_id: EDD_GROUP_ID,
  owner_user_id: OWNER_USER_ID,
  status: 'active' as const,
  check_types: ['sanctions' as const, 'pep' as const],
  created_at: ENROLLED_AT,
  subject_reference: SUBJECT_REFERENCE,
  subject: {
    subject_reference: SUBJECT_REFERENCE,
    type: 'person',
    display_name: 'Ri Won Ho',
    countries: ['KP'],
    birth_date: BIRTH_DATE_EXAMPLE,
    external_reference: 'cust-58213',
  },
  group: { id: EDD_GROUP_ID, name: 'Enhanced due diligence', slug: 'enhanced-due-diligence' },
  collaborator_user_ids: [],
  metadata: { review_cycle: 'quarterly' },
  allowed_actions: ['update', 'pause'],
};

/** The answer of POST /v1/monitoring-configs: enrolled, the baseline run still to come. */
export const CREATED_MONITORING_CONFIG_EXAMPLE = {
  ...MONITORING_CONFIG_BASE,
  latest_result: 'not_checked' as const,
  updated_at: ENROLLED_AT,
  last_checked_at: null,
  last_change_detected_at: null,
  latest_result_label: 'Not checked yet',
  latest_result_summary: null,
  latest_run_id: null,
  open_follow_up_case_count: 0,
  recommended_next_actions: [],
};

/** A week later: the UN list changed the listing, the run alerted and opened a follow-up case. */
export const MONITORING_CONFIG_EXAMPLE = {
  ...MONITORING_CONFIG_BASE,
  latest_result: 'changed_matches' as const,
  updated_at: ENROLLED_AT,
  last_checked_at: ALERT_RUN_DONE_AT,
  last_change_detected_at: ALERT_RUN_DONE_AT,
  latest_result_label: 'Changed matches',
  latest_result_summary: '1 changed match: RI WON HO (KPi.033) gained an alias and a passport number.',
  latest_run_id: ALERT_RUN_ID,
  open_follow_up_case_count: 1,
  recommended_next_actions: ['review_follow_up_case'],
};

export const MONITORING_CONFIG_LIST_EXAMPLE = {
  monitoring_configs: [MONITORING_CONFIG_EXAMPLE],
  next_cursor: null,
};

export const MONITORING_RUN_EXAMPLE = {
  monitoring_run_id: ALERT_RUN_ID,
  monitoring_config_id: MONITORING_CONFIG_ID,
  group_id: EDD_GROUP_ID,
  status: 'completed' as const,
  check_types: ['sanctions' as const, 'pep' as const],
  source_snapshot_ids: [UN_SNAPSHOT_V2_ID],
  source_snapshot_version: 'un_sc_sanctions@2',
  started_at: ALERT_RUN_AT,
  completed_at: ALERT_RUN_DONE_AT,
  result: 'changed_matches' as const,
  result_label: 'Changed matches',
  result_summary: '1 changed match: RI WON HO (KPi.033) gained an alias and a passport number.',
  match_count: 1,
  new_match_count: 0,
  changed_match_count: 1,
  unchanged_match_count: 0,
  created_case_reference: FOLLOW_UP_CASE_REFERENCE,
  error_message: null,
  created_at: ALERT_RUN_AT,
  updated_at: FOLLOW_UP_AT,
};

export const MONITORING_RUN_LIST_EXAMPLE = {
  monitoring_config_id: MONITORING_CONFIG_ID,
  subject_reference: SUBJECT_REFERENCE,
  group_id: EDD_GROUP_ID,
  runs: [
    MONITORING_RUN_EXAMPLE,
    {
      ...MONITORING_RUN_EXAMPLE,
      monitoring_run_id: BASELINE_RUN_ID,
      source_snapshot_ids: [UN_SNAPSHOT_ID],
      source_snapshot_version: 'un_sc_sanctions@1',
      started_at: '2026-11-25T10:05:12.933Z',
      completed_at: '2026-11-25T10:05:13.101Z',
      result: 'no_change' as const,
      result_label: 'No change',
      result_summary: 'Baseline: 1 match, already presented in case DKE623260.',
      match_count: 1,
      changed_match_count: 0,
      unchanged_match_count: 1,
      created_case_reference: null,
      created_at: '2026-11-25T10:05:12.933Z',
      updated_at: '2026-11-25T10:05:13.101Z',
    },
  ],
};

const OBSERVED_FACTS = {
  names: ['RI WON HO'],
  birth_dates: ['1964-07-17'],
  nationalities: ['KP'],
  countries: ['KP', 'SY'],
  programs: ['DPRK'],
  topics: ['sanction'],
  identifiers: [],
  entity_kind: 'person',
};

export const MONITORING_ALERT_EXAMPLE = {
  alert_id: 'alt_22ab65a3ce8277f104ebe2ae',
  monitoring_config_id: MONITORING_CONFIG_ID,
  monitoring_run_id: ALERT_RUN_ID,
  group_id: EDD_GROUP_ID,
  check_type: 'sanctions' as const,
  screening_type: 'sanctions' as const,
  match_fingerprint: 'fp_0c3e9b1a7f24d65e8a19b2c4',
  matched_entity_id: PENDING_MATCH.matched_entity_id,
  source: { name: SOURCE_EXAMPLE.name, record_reference: 'KPi.033' },
  display_name: 'RI WON HO',
  score: 99,
  confidence_band: 'high' as const,
  change_summary: 'The listing of RI WON HO (KPi.033) gained an alias and a passport number.',
  changes: [
    { field: 'names', previous: ['RI WON HO'], current: ['RI WON HO', 'RI WON-HO'] },
    { field: 'identifiers', previous: [], current: ['passport:381310014'] },
  ],
  previous_snapshot: {
    match_fingerprint: 'fp_0c3e9b1a7f24d65e8a19b2c4',
    check_type: 'sanctions',
    matched_entity_id: PENDING_MATCH.matched_entity_id,
    display_name: 'RI WON HO',
    source: { name: SOURCE_EXAMPLE.name, record_reference: 'KPi.033' },
    ...OBSERVED_FACTS,
    score: 99,
    above_threshold: true,
    listed: true,
    source_snapshot_id: UN_SNAPSHOT_ID,
  },
  current_snapshot: {
    match_fingerprint: 'fp_0c3e9b1a7f24d65e8a19b2c4',
    check_type: 'sanctions',
    matched_entity_id: PENDING_MATCH.matched_entity_id,
    display_name: 'RI WON HO',
    source: { name: SOURCE_EXAMPLE.name, record_reference: 'KPi.033' },
    ...OBSERVED_FACTS,
    names: ['RI WON HO', 'RI WON-HO'],
    identifiers: ['passport:381310014'],
    score: 99,
    above_threshold: true,
    listed: true,
    source_snapshot_id: UN_SNAPSHOT_V2_ID,
  },
  current_match: {
    match_id: `${FOLLOW_UP_CASE_REFERENCE}-1.f551879b2c8b`,
    rank: 1,
    display_name: 'RI WON HO',
    score: 0.99,
    matched_entity_id: PENDING_MATCH.matched_entity_id,
    match_type: 'exact_name',
    reason: PENDING_MATCH.reason,
    sources: [SOURCE_EXAMPLE],
    source_record_ref: 'KPi.033',
    source_snapshot_id: UN_SNAPSHOT_V2_ID,
    supporting_fields: PENDING_MATCH.supporting_fields,
    topics: ['sanction'],
    datasets: ['un_sc_sanctions'],
  },
  resolution_status: 'follow_up_case_created' as const,
  resolution_note: `Follow-up case ${FOLLOW_UP_CASE_REFERENCE} was opened for review.`,
  resolved_at: FOLLOW_UP_AT,
  created_case_reference: FOLLOW_UP_CASE_REFERENCE,
  created_at: ALERT_RUN_DONE_AT,
  updated_at: FOLLOW_UP_AT,
  allowed_actions: [],
  recommended_next_actions: ['review_follow_up_case'],
};

export const MONITORING_ALERT_LIST_EXAMPLE = {
  monitoring_config_id: MONITORING_CONFIG_ID,
  subject_reference: SUBJECT_REFERENCE,
  group_id: EDD_GROUP_ID,
  alerts: [MONITORING_ALERT_EXAMPLE],
};
