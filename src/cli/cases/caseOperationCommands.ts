import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Command } from 'commander';
import { type CaseRequester, userRequester } from '../../cases/caseAccess.js';
import { caseEventResources } from '../../cases/caseEventView.js';
import {
  addCollaborators,
  attachFile,
  type CaseChange,
  type CaseServiceDeps,
  changeGroup,
  changeOwner,
  removeCollaborators,
  saveDecisionDraft,
  saveDecisionReason,
  updateExternalReference,
} from '../../cases/caseService.js';
import type { CaseState } from '../../cases/caseState.js';
import { loadCase } from '../../cases/caseStream.js';
import type { EventIds } from '../../eventSourcing/commandHandler.js';
import type { Outcome, Rejection } from '../../eventSourcing/decision.js';
import { findUser } from '../../workspace/workspaceStore.js';
import { CliInputError, type CommandHost, helpExamples, parseInput, writeJson } from '../commandSupport.js';
import type { CliContext } from '../context.js';
import type { CliIo } from '../io.js';
import { guessContentType, readAttachment } from './attachmentInput.js';
import {
  assignInput,
  attachInput,
  caseCommand,
  collaboratorsInput,
  draftInput,
  externalReferenceInput,
  FINAL_DECISIONS,
  LABELS,
  moveInput,
  reasonInput,
} from './caseInputs.js';
import { historyEntry, stateJson } from './caseView.js';

/**
 * `casescreen cases move|assign|collaborators|set-external-reference|draft-decision|decision-reason|attach`:
 * the workspace operations a person of the account performs on a case, through the same use cases
 * as the API (src/cases/caseService.ts), as the named user (actor type `human`), with fresh event
 * ids. See docs/case-events-and-cli.md.
 */

type OperationInput = { caseReference: string; user: string; json?: boolean | undefined };

/** A use case run as the acting user, with this run's event ids. */
type Operation<T extends CaseChange> = (
  deps: CaseServiceDeps,
  requester: CaseRequester,
  ids: EventIds,
) => Promise<Outcome<T>>;

interface Reporting<T extends CaseChange> {
  /** What to say when the case's rules record nothing (it would change nothing), given the case they decided on. */
  unchanged?: (state: CaseState) => string;
  /** Fields the JSON output adds, and a line the text output adds, about what was done. */
  report?: (value: T) => { json: Record<string, unknown>; line: string };
}

export function registerCaseOperationCommands(cases: Command, { io, inContext }: CommandHost): void {
  const operateOn = <T extends CaseChange>(
    input: OperationInput,
    operation: Operation<T>,
    reporting: Reporting<T> = {},
  ) => inContext((context) => operate(context, io, input, operation, reporting));

  operationCommand(
    cases,
    'move',
    'Move the case to another group of its account (case_group_changed)',
    (command) =>
      command
        .requiredOption('--group <id>', 'the new group; its members must include the owner and collaborators')
        .addHelpText(
          'after',
          helpExamples(
            'cases move DKE623260 --group b388f863-e822-4ea8-bed9-14fb3bf95b9f --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
  ).action(async (reference: string, options) => {
    const input = parseInput(moveInput, { ...options, caseReference: reference }, LABELS);
    await operateOn(
      input,
      (deps, requester, ids) =>
        changeGroup(
          deps,
          requester,
          { caseReference: input.caseReference, groupId: input.group.toLowerCase() },
          ids,
        ),
      { unchanged: (s) => `case ${s.caseReference} is already in group ${s.groupId}` },
    );
  });

  operationCommand(
    cases,
    'assign',
    'Set or remove the case owner, a member of the case group (case_owner_changed)',
    (command) =>
      command
        .option('--owner <id>', 'the new owner')
        .option('--no-owner', 'remove the owner')
        .addHelpText(
          'after',
          helpExamples(
            'cases assign DKE623260 --owner 23dfc42a-d16a-463d-ae81-50b09b8f811e --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
            'cases assign DKE623260 --no-owner --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
  ).action(async (reference: string, options) => {
    const input = parseInput(assignInput, { ...options, caseReference: reference }, LABELS);
    const owner = input.owner === false || input.owner === undefined ? null : input.owner.toLowerCase();
    await operateOn(
      input,
      (deps, requester, ids) =>
        changeOwner(deps, requester, { caseReference: input.caseReference, ownerUserId: owner }, ids),
      {
        unchanged: (s) =>
          owner ? `${owner} already owns case ${s.caseReference}` : `case ${s.caseReference} has no owner`,
      },
    );
  });

  const collaborators = cases
    .command('collaborators')
    .description('Add or remove case collaborators, members of the case group')
    .addHelpText(
      'after',
      helpExamples(
        'cases collaborators add DKE623260 0a6fa93c-81a1-4302-b05d-4fd72e3d11b4 --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
        'cases collaborators remove DKE623260 0a6fa93c-81a1-4302-b05d-4fd72e3d11b4 --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
      ),
    );
  const collaboratorInput = (reference: string, userIds: string[], options: Record<string, unknown>) =>
    parseInput(collaboratorsInput, { ...options, caseReference: reference, userIds }, LABELS);
  operationCommand(collaborators, 'add', 'Add collaborators (case_collaborators_added)', (command) =>
    command
      .argument('<user_ids...>', 'users to add')
      .addHelpText(
        'after',
        helpExamples(
          'cases collaborators add DKE623260 0a6fa93c-81a1-4302-b05d-4fd72e3d11b4 --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
        ),
      ),
  ).action(async (reference: string, userIds: string[], options) => {
    const input = collaboratorInput(reference, userIds, options);
    await operateOn(
      input,
      (deps, requester, ids) =>
        addCollaborators(
          deps,
          requester,
          { caseReference: input.caseReference, userIds: input.userIds },
          ids,
        ),
      { unchanged: (s) => `every one of them already collaborates on case ${s.caseReference}` },
    );
  });
  operationCommand(collaborators, 'remove', 'Remove collaborators (case_collaborators_removed)', (command) =>
    command
      .argument('<user_ids...>', 'users to remove')
      .addHelpText(
        'after',
        helpExamples(
          'cases collaborators remove DKE623260 0a6fa93c-81a1-4302-b05d-4fd72e3d11b4 --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
        ),
      ),
  ).action(async (reference: string, userIds: string[], options) => {
    const input = collaboratorInput(reference, userIds, options);
    await operateOn(
      input,
      (deps, requester, ids) =>
        removeCollaborators(
          deps,
          requester,
          { caseReference: input.caseReference, userIds: input.userIds },
          ids,
        ),
      { unchanged: (s) => `none of them collaborates on case ${s.caseReference}` },
    );
  });

  operationCommand(
    cases,
    'set-external-reference',
    "Set or clear the case's external reference (case_external_reference_updated)",
    (command) =>
      command
        .option('--value <text>', 'the new external reference, at most 200 characters')
        .option('--clear', 'remove the external reference')
        .addHelpText(
          'after',
          helpExamples(
            'cases set-external-reference DKE623260 --value onb-2026-58213 --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
            'cases set-external-reference DKE623260 --clear --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
  ).action(async (reference: string, options) => {
    const input = parseInput(externalReferenceInput, { ...options, caseReference: reference }, LABELS);
    const value = input.clear ? null : (input.value ?? null);
    await operateOn(
      input,
      (deps, requester, ids) =>
        updateExternalReference(
          deps,
          requester,
          { caseReference: input.caseReference, externalReference: value },
          ids,
        ),
      {
        unchanged: (s) =>
          value === null
            ? `case ${s.caseReference} has no external reference`
            : `the external reference of case ${s.caseReference} is already "${value}"`,
      },
    );
  });

  operationCommand(
    cases,
    'draft-decision',
    'Save a draft of the case decision; the case stays pending (case_decision_draft_saved)',
    (command) =>
      command
        .requiredOption('--decision <decision>', FINAL_DECISIONS.join(', '))
        .option('--notes <text>', 'draft decision notes, at most 4000 characters')
        .addHelpText(
          'after',
          helpExamples(
            'cases draft-decision DKE623260 --decision fail --notes "Confirmed UN listing (KPi.033); refuse onboarding." --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
  ).action(async (reference: string, options) => {
    const input = parseInput(draftInput, { ...options, caseReference: reference }, LABELS);
    await operateOn(input, (deps, requester, ids) =>
      saveDecisionDraft(
        deps,
        requester,
        { caseReference: input.caseReference, decision: input.decision, notes: input.notes || null },
        ids,
      ),
    );
  });

  operationCommand(
    cases,
    'decision-reason',
    'Save the reasoning behind the case decision (case_decision_reason_saved)',
    (command) =>
      command
        .requiredOption('--reason <text>', 'at most 4000 characters')
        .addHelpText(
          'after',
          helpExamples(
            'cases decision-reason DKE623260 --reason "Name, date of birth and nationality agree with UN entry KPi.033." --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
  ).action(async (reference: string, options) => {
    const input = parseInput(reasonInput, { ...options, caseReference: reference }, LABELS);
    await operateOn(input, (deps, requester, ids) =>
      saveDecisionReason(deps, requester, { caseReference: input.caseReference, reason: input.reason }, ids),
    );
  });

  operationCommand(
    cases,
    'attach',
    'Store a file (at most 10 MiB) and add it to the case as a file material (case_attachment_added)',
    (command) =>
      command
        .requiredOption('--file <path>', 'the file to store')
        .requiredOption('--title <title>', 'material title, 1 to 160 characters')
        .option('--note <text>', 'material note, at most 4000 characters')
        .option('--content-type <type>', 'media type; guessed from the file extension when omitted')
        .addHelpText(
          'after',
          helpExamples(
            'cases attach DKE623260 --file passport-scan-ri-won-ho.pdf --title "Passport scan" --note "Copy provided by the customer" --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
          ),
        ),
    'print {caseReference, outcome, events, attachment, revision, case, ...}',
  ).action(async (reference: string, options) => {
    const input = parseInput(attachInput, { ...options, caseReference: reference }, LABELS);
    const content = await readAttachment(input.file);
    const filename = path.basename(input.file);
    if (filename.length > 255)
      throw new CliInputError('--file: the file name must be at most 255 characters');
    const contentType = input.contentType ?? guessContentType(filename);
    await operateOn(
      input,
      (deps, requester, ids) =>
        attachFile(
          deps,
          requester,
          {
            caseReference: input.caseReference,
            title: input.title,
            note: input.note || null,
            file: { filename, contentType, content },
          },
          ids,
        ),
      {
        report: ({ attachment }) => ({
          json: { attachment },
          line: `Stored attachment ${attachment.attachmentId}: ${attachment.byteSize} bytes, sha256 ${attachment.sha256}`,
        }),
      },
    );
  });
}

/**
 * An operation on one case as a user of its account: a caseCommand, the arguments and options
 * `more` adds, then the required `--user` and `--json`.
 */
function operationCommand(
  parent: Command,
  name: string,
  description: string,
  more: (command: Command) => Command,
  json = 'print {caseReference, outcome, events, revision, case, ...}',
): Command {
  return more(caseCommand(parent, name, description))
    .requiredOption('--user <id>', 'the user of the account doing it')
    .option('--json', json);
}

/**
 * One operator operation: the acting user must exist; the use case checks that the case exists and
 * belongs to the user's account, and its rules decide. A rejection is exit 1 with their message.
 * Whether the operation changes anything is the rules' call too: when they record nothing, so does
 * the command (exit 0).
 */
async function operate<T extends CaseChange>(
  context: CliContext,
  io: CliIo,
  input: OperationInput,
  operation: Operation<T>,
  reporting: Reporting<T>,
): Promise<number> {
  const acting = await findUser(context.pool, input.user);
  if (!acting) {
    io.stderr.write(`error: no user ${input.user}\n`);
    return 1;
  }
  // Fresh for this run, the same on its retries within it.
  const ids: string[] = [];
  const eventId = (index: number) => {
    ids[index] ??= randomUUID();
    return ids[index];
  };
  const outcome = await operation(
    { pool: context.pool, store: context.store, clock: context.clock },
    userRequester(acting),
    eventId,
  );
  if (!outcome.ok) {
    io.stderr.write(rejectionText(outcome.rejection));
    return 1;
  }
  const { state, appended } = outcome.value;
  if (appended.length === 0) {
    const reason = reporting.unchanged?.(state) ?? 'nothing to change';
    if (input.json) {
      writeJson(io, {
        caseReference: input.caseReference,
        outcome: 'unchanged',
        events: [],
        ...stateJson(state),
      });
    } else {
      io.stdout.write(`Nothing recorded: ${reason}\n`);
    }
    return 0;
  }

  // Read back what was appended, as the case-event API shows it, with its revision and time.
  const after = await loadCase(context.store, input.caseReference);
  const mine = new Set(ids);
  const report = reporting.report?.(outcome.value);
  if (input.json) {
    writeJson(io, {
      caseReference: input.caseReference,
      outcome: 'recorded',
      events: caseEventResources(after.events).filter((event) => mine.has(event.event_id)),
      ...report?.json,
      ...stateJson(after.state ?? state),
    });
    return 0;
  }
  for (const stored of after.events.filter((event) => mine.has(event.id))) {
    const entry = historyEntry(stored);
    io.stdout.write(
      `Recorded ${entry.eventType ?? entry.type} on case ${input.caseReference} at revision ${entry.revision} (event ${entry.eventId}): ${entry.summary}\n`,
    );
  }
  if (report) io.stdout.write(`${report.line}\n`);
  return 0;
}

function rejectionText(rejection: Rejection): string {
  const details = Object.entries(rejection.details ?? {}).map(
    ([key, value]) => `  ${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}\n`,
  );
  return `error: ${rejection.message}\n${details.join('')}`;
}
