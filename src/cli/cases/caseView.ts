import { type CaseEvent, SYSTEM_ACTOR } from '../../cases/caseEvents.js';
import {
  type ActorResource,
  actorResource,
  type PublicCaseEventType,
  type StoredCaseEvent,
  visibleForm,
} from '../../cases/caseEventView.js';
import type { CaseState } from '../../cases/caseState.js';
import { actorLabel, caseResource } from '../../cases/http/caseResources.js';
import type { KeyGrant } from '../../workspace/keyPolicy.js';
import { formatTable } from '../table.js';

/**
 * What `casescreen cases history|show` print: every event of a case stream (audit-only ones
 * included) with a one-line summary, and a case state as the API's Case resource shows it, minus
 * the guidance that depends on the calling key. Pure.
 */

export interface HistoryEntry {
  revision: number;
  eventId: string;
  recordedAt: string;
  occurredAt: string;
  /** The domain event type (`CaseCreated`, `CheckStarted`, ...). */
  type: CaseEvent['type'];
  /** The CaseEventType the API shows it as, or null for an audit-only event. */
  eventType: PublicCaseEventType | null;
  actor: ActorResource;
  summary: string;
  /** The event's data as stored. */
  data: CaseEvent['data'];
}

export function historyEntry(stored: StoredCaseEvent): HistoryEntry {
  const { event } = stored;
  const visible = visibleForm(event);
  return {
    revision: stored.revision,
    eventId: stored.id,
    recordedAt: stored.recordedAt.toISOString(),
    occurredAt: event.data.occurredAt,
    type: event.type,
    eventType: visible?.type ?? null,
    actor: actorResource(visible?.actor ?? SYSTEM_ACTOR),
    summary: historySummary(event) ?? visible?.summary ?? event.type,
    data: event.data,
  };
}

const quoted = (value: string | null) => (value === null ? 'none' : `"${value}"`);

/** A more telling line than the API's summary where the event carries more, for operators. */
function historySummary(event: CaseEvent): string | undefined {
  switch (event.type) {
    case 'CheckStarted':
      return `Check ${event.data.checkReference} started (attempt ${event.data.attempt}, worker ${event.data.worker})`;
    case 'CheckDecisionWithdrawn':
      return `Check ${event.data.checkReference} decision ${event.data.withdrawnDecision} withdrawn: ${event.data.cause}`;
    case 'CaseGroupChanged':
      return `Case moved from group ${event.data.previousGroupId} to ${event.data.groupId}`;
    case 'CaseOwnerChanged':
      return event.data.ownerUserId
        ? `Owner set to ${event.data.ownerUserId} (was ${event.data.previousOwnerUserId ?? 'none'})`
        : `Owner removed (was ${event.data.previousOwnerUserId ?? 'none'})`;
    case 'CaseCollaboratorsAdded':
      return `Collaborators added: ${event.data.userIds.join(', ')}`;
    case 'CaseCollaboratorsRemoved':
      return `Collaborators removed: ${event.data.userIds.join(', ')}`;
    case 'CaseExternalReferenceUpdated':
      return event.data.externalReference === null
        ? `External reference cleared (was ${quoted(event.data.previousExternalReference)})`
        : `External reference set to ${quoted(event.data.externalReference)} (was ${quoted(event.data.previousExternalReference)})`;
    case 'CaseDecisionDraftSaved':
      return `Draft case decision saved: ${event.data.decision}${event.data.notes ? ' (with notes)' : ''}`;
    case 'MaterialAdded': {
      const files = event.data.attachments.map((a) => `${a.filename}, ${a.byteSize} bytes`);
      return files.length > 0
        ? `File material "${event.data.title}" added: ${files.join('; ')}`
        : `${event.data.type === 'note' ? 'Note' : 'Link'} material "${event.data.title}" added`;
    }
    default:
      return undefined;
  }
}

/** A key that may do nothing: the guidance it would get is dropped anyway. */
const NO_KEY: KeyGrant = { scopes: [], actorType: 'api_client', finalDecision: false, groupIds: [] };

/**
 * The case as GET /v1/cases/{ref} would show it, without `allowed_actions` and
 * `recommended_next_actions` (they depend on the calling key; an operator has none).
 * `requires_human_review` and `blocking_items` depend on the state alone and stay.
 */
export function caseSnapshot(state: CaseState) {
  const {
    allowed_actions: _allowed,
    recommended_next_actions: _recommended,
    checks,
    ...resource
  } = caseResource(state, NO_KEY);
  return {
    ...resource,
    checks: checks.map(({ allowed_actions: _a, recommended_next_actions: _r, ...check }) => check),
  };
}

/** What the Case resource leaves out but an auditor wants: the draft decision and its reasoning. */
export function workspaceNotes(state: CaseState) {
  return {
    decisionDraft: state.decisionDraft
      ? {
          decision: state.decisionDraft.decision,
          notes: state.decisionDraft.notes,
          savedBy: actorResource(state.decisionDraft.actor),
          savedAt: state.decisionDraft.savedAt,
        }
      : null,
    decisionReason: state.decisionReason,
  };
}

/** The JSON `cases show` and `cases history` print for a state. */
export function stateJson(state: CaseState) {
  return { revision: state.revision, case: caseSnapshot(state), ...workspaceNotes(state) };
}

export function actorText(actor: ActorResource): string {
  const label = actorLabel({ type: actor.type, id: actor.id, displayName: actor.display_name }) ?? '';
  return actor.display_name && actor.type !== 'system' ? `${label} (${actor.display_name})` : label;
}

export function historyTable(entries: readonly HistoryEntry[]): string {
  return formatTable(
    ['REV', 'RECORDED AT', 'TYPE', 'ACTOR', 'SUMMARY'],
    entries.map((entry) => [
      String(entry.revision),
      entry.recordedAt,
      entry.eventType ? entry.type : `${entry.type} (audit)`,
      actorText(entry.actor),
      oneLine(entry.summary),
    ]),
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A readable summary of a case state, one fact a line. */
export function stateText(state: CaseState): string {
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(24)}${value}`);
  const { subject } = state;
  lines.push(`Case ${state.caseReference} (revision ${state.revision})`);
  row('Subject', `${subject.displayName} (${subject.type}, ${subject.subjectReference})`);
  row('Account', state.accountId);
  row('Group', state.groupId);
  row('Owner', state.ownerUserId ?? 'none');
  row('Collaborators', state.collaboratorUserIds.length > 0 ? state.collaboratorUserIds.join(', ') : 'none');
  row('External reference', state.externalReference ?? 'none');
  row(
    'Decision',
    state.resolvedBy
      ? `${state.decision} by ${actorLabel(state.resolvedBy)} at ${state.resolvedAt}`
      : state.decision,
  );
  if (state.decisionNotes) row('Decision notes', oneLine(state.decisionNotes));
  if (state.decisionDraft) {
    const draft = state.decisionDraft;
    row('Draft decision', `${draft.decision} by ${actorLabel(draft.actor)} at ${draft.savedAt}`);
    if (draft.notes) row('Draft notes', oneLine(draft.notes));
  }
  if (state.decisionReason) row('Decision reason', oneLine(state.decisionReason));
  row('Requires human review', caseSnapshot(state).requires_human_review ? 'yes' : 'no');
  row('Created', `${state.createdAt} by ${actorLabel(state.createdBy)}`);
  row('Updated', state.updatedAt);
  lines.push('  Checks:');
  for (const check of state.checks) {
    const pending = check.matches.filter((m) => m.reviewStatus === 'pending_review').length;
    const matches =
      check.lifecycleStatus === 'completed'
        ? `, ${check.matches.length} match(es)${pending > 0 ? `, ${pending} pending review` : ''}`
        : '';
    const failure = check.failureReason ? `: ${oneLine(check.failureReason)}` : '';
    lines.push(
      `    ${check.checkReference}  ${check.type}  ${check.lifecycleStatus}  ${check.decision}${matches}${failure}`,
    );
  }
  lines.push(`  Materials:${state.materials.length === 0 ? ' none' : ''}`);
  for (const material of state.materials) {
    const files = material.attachments.map((a) => `${a.filename} (${a.attachmentId}, ${a.byteSize} bytes)`);
    lines.push(
      `    ${material.materialId}  ${material.type}  "${material.title}"${files.length > 0 ? `  ${files.join(', ')}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
