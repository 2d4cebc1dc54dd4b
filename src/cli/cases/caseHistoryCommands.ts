import type { Command } from 'commander';
import { foldCase } from '../../cases/caseState.js';
import { loadCase } from '../../cases/caseStream.js';
import { notFoundText } from '../../shared/notFound.js';
import { type CommandHost, helpExamples, parseInput, writeJson } from '../commandSupport.js';
import type { CliContext } from '../context.js';
import type { CliIo } from '../io.js';
import { caseCommand, historyInput, LABELS, showInput } from './caseInputs.js';
import { historyEntry, historyTable, stateJson, stateText } from './caseView.js';

/**
 * `casescreen cases history|show`: the audit history of a case and its state, rebuilt from its
 * stream alone (docs/case-events-and-cli.md).
 */
export function registerCaseHistoryCommands(cases: Command, { io, inContext }: CommandHost): void {
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
}

async function caseHistory(
  context: CliContext,
  io: CliIo,
  input: { caseReference: string; asOf?: Date | undefined; json?: boolean | undefined; events?: boolean },
): Promise<number> {
  const { events: stored } = await loadCase(context.store, input.caseReference);
  if (stored.length === 0) {
    io.stderr.write(`error: ${notFoundText('case', input.caseReference)}\n`);
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
