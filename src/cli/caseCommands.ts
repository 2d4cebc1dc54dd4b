import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES, saveAttachmentFile } from '../cases/attachmentFiles.js';
import type { CaseCommand } from '../cases/caseDecide.js';
import type { Actor } from '../cases/caseEvents.js';
import { caseEventResources } from '../cases/caseEventView.js';
import { type CaseState, foldCase } from '../cases/caseState.js';
import { loadCase, runCaseCommand } from '../cases/caseStream.js';
import { attachmentId, CASE_REFERENCE, materialId } from '../cases/references.js';
import type { Rejection } from '../eventSourcing/decision.js';
import { historyEntry, historyTable, stateJson, stateText } from './caseView.js';
import { findGroupAccount, findUser, groupMemberIds, humanActor } from './caseWorkspace.js';
import {
  CliInputError,
  type CommandHost,
  helpExamples,
  isoDateTimeInput,
  parseInput,
  uuidInput,
  writeJson,
} from './commandSupport.js';
import type { CliContext } from './context.js';
import type { CliIo } from './io.js';

/**
 * `casescreen cases ...`: the audit history of a case (`history`, `show`), rebuilt from its stream
 * alone, and the workspace operations a person of the account performs on a case (`move`,
 * `assign`, `collaborators`, `set-external-reference`, `draft-decision`, `decision-reason`,
 * `attach`). Each operation appends through the case's own rules (runCaseCommand) with fresh event
 * ids, as the named user (actor type `human`). See docs/case-events-and-cli.md.
 */

const json = z.boolean().optional();
const caseReference = z
  .string()
  .regex(CASE_REFERENCE, 'must be a case reference: three capital letters and six digits, e.g. ABC123456');
const user = uuidInput;
const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const LABELS = { caseReference: '<case_reference>', userIds: '<user_ids...>' };

const FINAL_DECISIONS = ['pass', 'conditional_pass', 'fail'] as const;

const historyInput = z.object({ caseReference, asOf: isoDateTimeInput.optional(), json });
const showInput = z.object({ caseReference, json });
const moveInput = z.object({ caseReference, group: uuidInput, user, json });
const assignInput = z
  .object({ caseReference, owner: z.union([z.string(), z.literal(false)]).optional(), user, json })
  .superRefine((input, ctx) => {
    if (input.owner === undefined) {
      ctx.addIssue({ code: 'custom', path: ['owner'], message: 'give --owner <user id> or --no-owner' });
    } else if (input.owner !== false && !uuidInput.safeParse(input.owner).success) {
      ctx.addIssue({ code: 'custom', path: ['owner'], message: 'must be a UUID' });
    }
  });
const collaboratorsInput = z.object({
  caseReference,
  userIds: z.array(uuidInput).min(1, 'name at least one user').max(50, 'at most 50 users at a time'),
  user,
  json,
});
const externalReferenceInput = z
  .object({ caseReference, value: text(200).optional(), clear: z.boolean().optional(), user, json })
  .superRefine((input, ctx) => {
    if ((input.value === undefined) === !input.clear) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'give either --value <text> or --clear, not both',
      });
    }
  });
const draftInput = z.object({
  caseReference,
  decision: z.enum(FINAL_DECISIONS, `must be one of ${FINAL_DECISIONS.join(', ')}`),
  notes: z.string().trim().max(4000, 'must be at most 4000 characters').optional(),
  user,
  json,
});
const reasonInput = z.object({ caseReference, reason: text(4000), user, json });
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[^\s;=]+=[^;]+)*$/i;
const attachInput = z.object({
  caseReference,
  file: z.string().min(1, 'must not be empty'),
  title: text(160),
  note: z.string().trim().max(4000, 'must be at most 4000 characters').optional(),
  contentType: z
    .string()
    .trim()
    .max(255, 'must be at most 255 characters')
    .regex(CONTENT_TYPE, 'must be a media type such as application/pdf')
    .optional(),
  user,
  json,
});

/** `cases history|show|move|assign|collaborators|set-external-reference|draft-decision|decision-reason|attach`. */
export function registerCaseCommands(program: Command, { io, inContext }: CommandHost): void {
  const cases = program
    .command('cases')
    .description('Cases: audit history, current state, and workspace operations as a user of the account')
    .addHelpText(
      'after',
      helpExamples(
        'cases show DKE623260',
        'cases history DKE623260 --as-of 2026-11-25T09:30:00Z',
        'cases assign DKE623260 --owner 23dfc42a-d16a-463d-ae81-50b09b8f811e --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
      ),
    );
  /** Runs an operation of the acting user on the case `input` names (see operate). */
  const operateOn = (
    input: OperationInput,
    build: (context: CliContext, op: OperationContext) => Promise<Built>,
  ) => inContext((context) => operate(context, io, input, (op) => build(context, op)));

  caseCommand(
    cases,
    'history',
    'Every event of the case stream (audit-only ones included) and the case as it stood, rebuilt from the stream',
  )
    .addHelpText(
      'after',
      helpExamples('cases history DKE623260', 'cases history DKE623260 --as-of 2026-11-25T09:30:00Z --json'),
    )
    .option(
      '--as-of <time>',
      'ISO 8601 time: only events recorded at or before it, and the case as it was then',
    )
    .option('--json', 'print {caseReference, asOf, eventCount, laterEventCount, events, revision, case, ...}')
    .action(async (reference: string, options) => {
      const input = parseInput(historyInput, { ...options, caseReference: reference }, LABELS);
      await inContext((context) => caseHistory(context, io, input));
    });

  caseCommand(cases, 'show', 'The case as it stands now, rebuilt from its stream')
    .addHelpText('after', helpExamples('cases show DKE623260 --json'))
    .option('--json', 'print {caseReference, revision, case, decisionDraft, decisionReason}')
    .action(async (reference: string, options) => {
      const input = parseInput(showInput, { ...options, caseReference: reference }, LABELS);
      await inContext((context) => caseHistory(context, io, { ...input, events: false }));
    });

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
    await operateOn(input, async (context, { state, actor }) => {
      const account = await findGroupAccount(context.pool, input.group);
      if (account === undefined) return { error: `no group ${input.group}` };
      if (account !== state.accountId) {
        return { error: `group ${input.group} is not a group of account ${state.accountId}` };
      }
      return {
        command: {
          type: 'ChangeGroup',
          groupId: asHeld(input.group, [state.groupId]),
          groupMemberIds: await groupMemberIds(context.pool, input.group),
          actor,
          now: now(),
        },
        unchanged: (s) => `case ${s.caseReference} is already in group ${s.groupId}`,
      };
    });
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
    await operateOn(input, async (context, { state, actor }) => ({
      command: {
        type: 'ChangeOwner',
        ownerUserId: owner && asHeld(owner, [state.ownerUserId]),
        groupMemberIds: await groupMemberIds(context.pool, state.groupId),
        actor,
        now: now(),
      },
      unchanged: (s) =>
        owner ? `${owner} already owns case ${s.caseReference}` : `case ${s.caseReference} has no owner`,
    }));
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
  /** The user ids named, each once (ids compare ignoring case). */
  const collaboratorInput = (reference: string, userIds: string[], options: Record<string, unknown>) => {
    const input = parseInput(collaboratorsInput, { ...options, caseReference: reference, userIds }, LABELS);
    return { input, ids: [...new Set(input.userIds.map((id) => id.toLowerCase()))] };
  };
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
    const { input, ids } = collaboratorInput(reference, userIds, options);
    await operateOn(input, async (context, { state, actor }) => ({
      command: {
        type: 'AddCollaborators',
        // Those already there as the case holds them: the rule skips them.
        userIds: ids.map((id) => asHeld(id, state.collaboratorUserIds)),
        groupMemberIds: await groupMemberIds(context.pool, state.groupId),
        actor,
        now: now(),
      },
      unchanged: (s) => `every one of them already collaborates on case ${s.caseReference}`,
    }));
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
    const { input, ids } = collaboratorInput(reference, userIds, options);
    await operateOn(input, async (_context, { state, actor }) => ({
      command: {
        type: 'RemoveCollaborators',
        // The ids as the case holds them: the rule matches them exactly.
        userIds: state.collaboratorUserIds.filter((id) => ids.includes(id.toLowerCase())),
        actor,
        now: now(),
      },
      unchanged: (s) => `none of them collaborates on case ${s.caseReference}`,
    }));
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
    await operateOn(input, async (_context, { actor }) => ({
      command: { type: 'UpdateExternalReference', externalReference: value, actor, now: now() },
      unchanged: (s) =>
        value === null
          ? `case ${s.caseReference} has no external reference`
          : `the external reference of case ${s.caseReference} is already "${value}"`,
    }));
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
    await operateOn(input, async (_context, { actor }) => ({
      command: {
        type: 'SaveDecisionDraft',
        decision: input.decision,
        notes: input.notes || null,
        actor,
        now: now(),
      },
    }));
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
    await operateOn(input, async (_context, { actor }) => ({
      command: { type: 'SaveDecisionReason', reason: input.reason, actor, now: now() },
    }));
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
    await operateOn(input, async (context, { state, actor, eventId }) => {
      const material = materialId(eventId(0));
      // The bytes first: once the event exists, its file must too. A crash before the append
      // leaves a row no event names, which nothing reads.
      const file = await saveAttachmentFile(context.pool, {
        attachmentId: attachmentId(material, 0),
        caseReference: state.caseReference,
        filename,
        contentType,
        content,
      });
      const attachment = {
        attachmentId: file.attachmentId,
        filename: file.filename,
        contentType: file.contentType,
        byteSize: file.byteSize,
        sha256: file.sha256,
      };
      return {
        command: {
          type: 'AddMaterial',
          materialId: material,
          title: input.title,
          note: input.note || null,
          url: null,
          attachments: [attachment],
          actor,
          now: now(),
        },
        report: { attachment },
      };
    });
  });
}

/** A `cases` subcommand on one case: its name, description and `<case_reference>` argument. */
function caseCommand(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).argument('<case_reference>', 'e.g. ABC123456');
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
 * `id` as the case holds it, where it holds it under another case (ids compare ignoring case),
 * else `id`: the case's rules compare ids exactly, and a command naming what the case already
 * holds changes nothing.
 */
function asHeld(id: string, held: readonly (string | null)[]): string {
  return held.find((candidate) => candidate?.toLowerCase() === id.toLowerCase()) ?? id;
}

const now = () => new Date().toISOString();

// ---- history and show ----------------------------------------------------------------------

async function caseHistory(
  context: CliContext,
  io: CliIo,
  input: { caseReference: string; asOf?: Date | undefined; json?: boolean | undefined; events?: boolean },
): Promise<number> {
  const { events: stored } = await loadCase(context.store, input.caseReference);
  if (stored.length === 0) {
    io.stderr.write(`error: no case ${input.caseReference}\n`);
    return 1;
  }
  // The case at a time is the longest prefix of its stream recorded by then: revisions are
  // appended in order, so a prefix is a state the case really had.
  const asOf = input.asOf;
  const cut = asOf ? stored.findIndex((event) => event.recordedAt.getTime() > asOf.getTime()) : -1;
  const shown = cut === -1 ? stored : stored.slice(0, cut);
  if (shown.length === 0) {
    io.stderr.write(
      `error: case ${input.caseReference} did not exist yet at ${asOf!.toISOString()}; it was created at ${stored[0]!.recordedAt.toISOString()}\n`,
    );
    return 1;
  }
  const state = foldCase(shown.map((event) => event.event))!;
  const withEvents = input.events ?? true;
  const entries = shown.map(historyEntry);
  if (input.json) {
    writeJson(io, {
      caseReference: input.caseReference,
      ...(withEvents
        ? {
            asOf: asOf?.toISOString() ?? null,
            eventCount: stored.length,
            laterEventCount: stored.length - shown.length,
            events: entries,
          }
        : {}),
      ...stateJson(state),
    });
    return 0;
  }
  if (withEvents) {
    const later = stored.length - shown.length;
    io.stdout.write(
      asOf
        ? `History of case ${input.caseReference} as of ${asOf.toISOString()}: ${shown.length} event(s)${later > 0 ? `, ${later} more recorded later and not shown` : ''}\n`
        : `History of case ${input.caseReference}: ${shown.length} event(s)\n`,
    );
    io.stdout.write(historyTable(entries));
    io.stdout.write(asOf ? `\nThe case as of ${asOf.toISOString()}:\n` : '\nThe case now:\n');
  }
  io.stdout.write(stateText(state));
  return 0;
}

// ---- operations ------------------------------------------------------------------------------

type Built =
  | {
      command: CaseCommand;
      /**
       * What to say when the case's rules record nothing for the command (it would change
       * nothing), given the case they decided on.
       */
      unchanged?: (state: CaseState) => string;
      report?: Record<string, unknown>;
    }
  | { error: string };

type OperationInput = { caseReference: string; user: string; json?: boolean | undefined };

interface OperationContext {
  state: CaseState;
  actor: Actor;
  /** The id of the i-th event the command appends: fresh for this run, the same on its retries. */
  eventId: (index: number) => string;
}

/**
 * One operator operation: the case must exist and the acting user must belong to its account;
 * `build` looks up what the rule needs and makes the command; runCaseCommand decides and appends.
 * A rejection by the case's rules is exit 1 with their message. Whether the command changes
 * anything is the rules' call too: when they record nothing, so does the command (exit 0).
 */
async function operate(
  context: CliContext,
  io: CliIo,
  input: OperationInput,
  build: (operation: OperationContext) => Promise<Built>,
): Promise<number> {
  const { state } = await loadCase(context.store, input.caseReference);
  if (!state) {
    io.stderr.write(`error: no case ${input.caseReference}\n`);
    return 1;
  }
  const acting = await findUser(context.pool, input.user);
  if (!acting) {
    io.stderr.write(`error: no user ${input.user}\n`);
    return 1;
  }
  if (acting.accountId !== state.accountId) {
    io.stderr.write(
      `error: user ${acting.id} is not a user of account ${state.accountId}, which case ${state.caseReference} belongs to\n`,
    );
    return 1;
  }
  const ids: string[] = [];
  const eventId = (index: number) => {
    ids[index] ??= randomUUID();
    return ids[index];
  };
  const built = await build({ state, actor: humanActor(acting), eventId });
  if ('error' in built) {
    io.stderr.write(`error: ${built.error}\n`);
    return 1;
  }

  const outcome = await runCaseCommand(context.store, state.caseReference, built.command, eventId);
  if (!outcome.ok) {
    io.stderr.write(rejectionText(outcome.rejection));
    return 1;
  }
  if (outcome.appended.length === 0) {
    const reason = built.unchanged?.(outcome.state) ?? 'nothing to change';
    return reportUnchanged(io, input, outcome.state, reason);
  }

  // Read back what was appended, as the case-event API shows it, with its revision and time.
  const after = await loadCase(context.store, state.caseReference);
  const mine = new Set(ids);
  const events = caseEventResources(after.events).filter((event) => mine.has(event.event_id));
  const current = after.state ?? outcome.state;
  if (input.json) {
    writeJson(io, {
      caseReference: state.caseReference,
      outcome: 'recorded',
      events,
      ...built.report,
      ...stateJson(current),
    });
    return 0;
  }
  for (const stored of after.events.filter((event) => mine.has(event.id))) {
    const entry = historyEntry(stored);
    io.stdout.write(
      `Recorded ${entry.eventType ?? entry.type} on case ${state.caseReference} at revision ${entry.revision} (event ${entry.eventId}): ${entry.summary}\n`,
    );
  }
  const attachment = built.report?.attachment as
    | { attachmentId: string; sha256: string; byteSize: number }
    | undefined;
  if (attachment) {
    io.stdout.write(
      `Stored attachment ${attachment.attachmentId}: ${attachment.byteSize} bytes, sha256 ${attachment.sha256}\n`,
    );
  }
  return 0;
}

function reportUnchanged(
  io: CliIo,
  input: { caseReference: string; json?: boolean | undefined },
  state: CaseState,
  reason: string,
): number {
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

function rejectionText(rejection: Rejection): string {
  const details = Object.entries(rejection.details ?? {}).map(
    ([key, value]) => `  ${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}\n`,
  );
  return `error: ${rejection.message}\n${details.join('')}`;
}

// ---- files -----------------------------------------------------------------------------------

/** The file's bytes, or exit 2: missing, not a file, empty, or over 10 MiB. */
async function readAttachment(file: string): Promise<Buffer> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliInputError(`--file: ${file} is not a regular file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliInputError) throw error;
    throw new CliInputError(`--file: cannot read ${file}: ${(error as Error).message}`);
  }
  const tooLarge = (bytes: number) =>
    new CliInputError(
      `--file: ${file} is ${bytes} bytes; attachments are limited to 10 MiB (${MAX_ATTACHMENT_BYTES} bytes)`,
    );
  if (size > MAX_ATTACHMENT_BYTES) throw tooLarge(size);
  const content = await readFile(file);
  if (content.length > MAX_ATTACHMENT_BYTES) throw tooLarge(content.length);
  if (content.length === 0) throw new CliInputError(`--file: ${file} is empty`);
  return content;
}

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.eml': 'message/rfc822',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.zip': 'application/zip',
};

export function guessContentType(filename: string): string {
  return CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}
