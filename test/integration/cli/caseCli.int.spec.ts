import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAttachmentFile, sha256Hex } from '../../../src/cases/attachmentFiles.js';
import type { CaseCommand } from '../../../src/cases/caseDecide.js';
import type { Actor } from '../../../src/cases/caseEvents.js';
import { caseEventResources } from '../../../src/cases/caseEventView.js';
import { loadCase } from '../../../src/cases/caseStream.js';
import { checkReference } from '../../../src/cases/references.js';
import { decideSubject } from '../../../src/subjects/subjectDecide.js';
import { subjectCommandHandler } from '../../../src/subjects/subjectStream.js';
import { createCaseNow, createCaseWorkspace, createMember, runCase } from '../../support/caseApi.js';
import { complete, start } from '../../support/caseBuilders.js';
import { runCliCaptured } from '../../support/cli.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('casescreen cases: history, show and the operator commands', () => {
  let es: TestEventStore;
  let dir: string;
  let accountId: string;
  let defaultGroupId: string;
  let secondGroupId: string;
  let foreignGroupId: string;
  /** alice acts; bob is in both groups; carol only in the default one; dave only in the second. */
  const users: Record<'alice' | 'bob' | 'carol' | 'dave' | 'nameless' | 'foreigner', string> = {
    alice: '',
    bob: '',
    carol: '',
    dave: '',
    nameless: '',
    foreigner: '',
  };
  let caseCounter = 0;
  const apiClient: Actor = { type: 'api_client', id: randomUUID(), displayName: 'backend' };

  beforeAll(async () => {
    es = await openTestEventStore();
    dir = await mkdtemp(path.join(os.tmpdir(), 'casescreen-attach-'));
    const { pool } = es.db;
    const workspace = await createCaseWorkspace(pool, {
      account: 'Case Ops',
      groups: ['Second desk'],
      foreign: 'Elsewhere',
    });
    ({ accountId, defaultGroupId, foreignGroupId } = workspace);
    secondGroupId = workspace.groupIds[0]!;
    const user = async (name: keyof typeof users, groups: string[], account = accountId) => {
      users[name] = await createMember(
        pool,
        {
          accountId: account,
          email: `${name}@example.com`,
          displayName: name === 'nameless' ? null : name[0]!.toUpperCase() + name.slice(1),
        },
        groups,
      );
    };
    await user('alice', [defaultGroupId]);
    await user('bob', [defaultGroupId, secondGroupId]);
    await user('carol', [defaultGroupId]);
    await user('dave', [secondGroupId]);
    await user('nameless', []);
    await user('foreigner', [foreignGroupId], workspace.foreignAccountId);
  });
  afterAll(async () => {
    await es?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: es.db.url });

  /** A --json command that must succeed: its one JSON object. */
  async function cliJson(...argv: string[]) {
    const result = await cli(...argv, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }

  const run = (reference: string, command: CaseCommand) => runCase(es.store, reference, command);

  async function createCase(options: { ownerUserId?: string | null; groupId?: string } = {}) {
    const reference = `CLI${String(100000 + caseCounter++).padStart(6, '0')}`;
    await run(
      reference,
      createCaseNow(
        {
          groupMemberIds: [users.alice, users.bob, users.carol],
          caseReference: reference,
          accountId,
          groupId: options.groupId ?? defaultGroupId,
          ownerUserId: options.ownerUserId ?? null,
          actor: apiClient,
        },
        {
          type: 'company',
          displayName: 'Northwind Shipping Ltd',
          countries: ['GB'],
          birthDate: null,
          externalReference: null,
          metadata: {},
        },
      ),
    );
    return reference;
  }

  async function stream(reference: string) {
    return (await loadCase(es.store, reference)).events;
  }

  /** The newest event of the case as the case-event API shows it. */
  async function lastVisible(reference: string) {
    return caseEventResources(await stream(reference)).at(-1)!;
  }

  const human = (name: keyof typeof users, displayName?: string) => ({
    type: 'human',
    id: users[name],
    display_name: displayName ?? name[0]!.toUpperCase() + name.slice(1),
  });

  describe('history and show', () => {
    it('prints every event, audit-only ones included, and the case as it stood at --as-of', async () => {
      const reference = await createCase();
      const check = checkReference(reference, 1);
      await run(reference, start(check, 1, { worker: 'worker-7', now: new Date().toISOString() }));
      await sleep(40);
      const asOf = new Date();
      await sleep(40);
      await cliJson('cases', 'assign', reference, '--owner', users.bob, '--user', users.alice);
      await cliJson('cases', 'collaborators', 'add', reference, users.carol, '--user', users.alice);
      await run(
        reference,
        complete(check, [], { threshold: 0.8, snapshots: [], now: new Date().toISOString() }),
      );

      const now = await cliJson('cases', 'history', reference);
      expect(now).toMatchObject({ caseReference: reference, asOf: null, eventCount: 5, laterEventCount: 0 });
      expect(
        now.events.map((e: { type: string; eventType: string | null }) => [e.type, e.eventType]),
      ).toEqual([
        ['CaseCreated', 'case_created'],
        ['CheckStarted', null],
        ['CaseOwnerChanged', 'case_owner_changed'],
        ['CaseCollaboratorsAdded', 'case_collaborators_added'],
        ['CheckCompleted', 'check_completed'],
      ]);
      const stored = await stream(reference);
      expect(now.events.map((e: { eventId: string; revision: number }) => [e.eventId, e.revision])).toEqual(
        stored.map((e) => [e.id, e.revision]),
      );
      expect(now.events[1]).toMatchObject({
        actor: { type: 'system' },
        summary: `Check ${check} started (attempt 1, worker worker-7)`,
        data: { worker: 'worker-7' },
      });
      expect(now.events[2]).toMatchObject({
        actor: human('alice'),
        summary: `Owner set to ${users.bob} (was none)`,
      });
      expect(now.case).toMatchObject({
        case_reference: reference,
        owner_user_id: users.bob,
        collaborator_user_ids: [users.carol],
        checks: [{ check_reference: check, lifecycle_status: 'completed', decision: 'no_matches_found' }],
        requires_human_review: false,
      });
      expect(now.case).not.toHaveProperty('allowed_actions');
      expect(now.case).not.toHaveProperty('recommended_next_actions');
      expect(now.case.checks[0]).not.toHaveProperty('allowed_actions');
      expect(now.revision).toBe(4);

      const then = await cliJson('cases', 'history', reference, '--as-of', asOf.toISOString());
      expect(then).toMatchObject({
        asOf: asOf.toISOString(),
        eventCount: 5,
        laterEventCount: 3,
        revision: 1,
      });
      expect(then.events.map((e: { type: string }) => e.type)).toEqual(['CaseCreated', 'CheckStarted']);
      expect(then.case).toMatchObject({
        owner_user_id: null,
        collaborator_user_ids: [],
        checks: [{ lifecycle_status: 'running', decision: 'pending_review' }],
        requires_human_review: true,
      });

      // The same with an offset instead of Z.
      const offset = new Date(asOf.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      expect((await cliJson('cases', 'history', reference, '--as-of', offset)).revision).toBe(1);

      const text = await cli('cases', 'history', reference, '--as-of', asOf.toISOString());
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(
        `History of case ${reference} as of ${asOf.toISOString()}: 2 event(s), 3 more`,
      );
      expect(text.stdout).toMatch(/REV\s+RECORDED AT\s+TYPE\s+ACTOR\s+SUMMARY/);
      expect(text.stdout).toMatch(/1\s+\S+\s+CheckStarted \(audit\)\s+system\s+Check /);
      expect(text.stdout).toContain(`The case as of ${asOf.toISOString()}:`);
      expect(text.stdout).toMatch(/Owner:\s+none/);
      const full = await cli('cases', 'history', reference);
      expect(full.stdout).toMatch(new RegExp(`Owner:\\s+${users.bob}`));
      expect(full.stdout).toContain(`human:${users.alice} (Alice)`);
    });

    it('says when --as-of is before the case existed, and refuses malformed times and unknown cases', async () => {
      const reference = await createCase();
      const before = await cli('cases', 'history', reference, '--as-of', '2001-01-01T00:00:00Z');
      expect(before.code).toBe(1);
      expect(before.stderr).toMatch(
        new RegExp(
          `^error: case ${reference} did not exist yet at 2001-01-01T00:00:00.000Z; it was created at `,
        ),
      );
      for (const bad of ['yesterday', '2030-01-01T00:00:00', '2030-13-01T00:00:00Z']) {
        const result = await cli('cases', 'history', reference, '--as-of', bad);
        expect(result.code, bad).toBe(2);
        expect(result.stderr).toContain('--as-of: must be an ISO 8601 date-time');
      }
      expect(await cli('cases', 'history', 'ZZZ000000')).toMatchObject({
        code: 1,
        stderr: 'error: Case ZZZ000000 was not found.\n',
      });
      expect(await cli('cases', 'show', 'ZZZ000000')).toMatchObject({ code: 1 });
      expect((await cli('cases', 'history', 'abc')).code).toBe(2);
    });

    it('shows the current state without the event list', async () => {
      const reference = await createCase({ ownerUserId: users.carol });
      const shown = await cliJson('cases', 'show', reference);
      expect(Object.keys(shown).sort()).toEqual([
        'case',
        'caseReference',
        'decisionDraft',
        'decisionReason',
        'revision',
      ]);
      expect(shown.case).toMatchObject({
        case_reference: reference,
        owner_user_id: users.carol,
        decision: 'pending_decision',
      });
      const text = await cli('cases', 'show', reference);
      expect(text.stdout).toMatch(new RegExp(`^Case ${reference} \\(revision 0\\)\\n`));
      expect(text.stdout).toContain('Northwind Shipping Ltd (company, sub_');
      expect(text.stdout).not.toContain('RECORDED AT');
    });
  });

  describe('operator commands', () => {
    it('moves a case to another group of its account, whose members must include owner and collaborators', async () => {
      const reference = await createCase({ ownerUserId: users.bob });
      const moved = await cliJson(
        'cases',
        'move',
        reference,
        '--group',
        secondGroupId,
        '--user',
        users.alice,
      );
      expect(moved).toMatchObject({
        caseReference: reference,
        outcome: 'recorded',
        case: { group_id: secondGroupId },
      });
      const event = await lastVisible(reference);
      expect(moved.events).toEqual([event]);
      expect(event).toMatchObject({
        event_type: 'case_group_changed',
        actor: human('alice'),
        payload: { group_id: secondGroupId, previous_group_id: defaultGroupId },
      });

      const carols = await createCase({ ownerUserId: users.carol });
      const refused = await cli('cases', 'move', carols, '--group', secondGroupId, '--user', users.alice);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `error: The case owner and collaborators must be members of the new group.\n  group_id: ${secondGroupId}\n  non_member_user_ids: ${users.carol}\n`,
      );
      const foreign = await cli('cases', 'move', carols, '--group', foreignGroupId, '--user', users.alice);
      expect(foreign).toMatchObject({
        code: 1,
        stderr: `error: group ${foreignGroupId} is not a group of account ${accountId}\n`,
      });
      const unknown = randomUUID();
      expect(await cli('cases', 'move', carols, '--group', unknown, '--user', users.alice)).toMatchObject({
        code: 1,
        stderr: `error: no group ${unknown}\n`,
      });
      expect((await stream(carols)).length).toBe(1);

      const same = await cli('cases', 'move', reference, '--group', secondGroupId, '--user', users.alice);
      expect(same).toMatchObject({ code: 0, stdout: expect.stringContaining('Nothing recorded') });
      expect((await cli('cases', 'move', reference, '--group', 'nope', '--user', users.alice)).code).toBe(2);
    });

    it('moves the case’s subject into the new group too, so that group’s keys see what its case screens', async () => {
      const reference = await createCase({ ownerUserId: users.bob });
      const { state } = await loadCase(es.store, reference);
      const subjectReference = state!.subject.subjectReference;
      // The subject as POST /v1/cases leaves it: created in the case's group.
      await subjectCommandHandler.handle(
        es.store,
        subjectReference,
        (subject) =>
          decideSubject(
            {
              type: 'UseSubject',
              subjectReference,
              accountId,
              named: false,
              groupId: defaultGroupId,
              visibleGroupIds: [defaultGroupId],
              sent: { name: 'Northwind Shipping Ltd', type: 'company' },
              now: new Date().toISOString(),
            },
            subject,
          ),
        () => randomUUID(),
      );
      await cliJson('cases', 'move', reference, '--group', secondGroupId, '--user', users.alice);
      const subject = (await subjectCommandHandler.load(es.store, subjectReference)).state!;
      expect(subject.groupIds).toEqual([defaultGroupId, secondGroupId]);
    });

    it('assigns and removes the owner, a member of the case group', async () => {
      const reference = await createCase();
      const text = await cli('cases', 'assign', reference, '--owner', users.bob, '--user', users.alice);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(
        new RegExp(
          `^Recorded case_owner_changed on case ${reference} at revision 1 \\(event [0-9a-f-]{36}\\): Owner set to ${users.bob} \\(was none\\)\\n$`,
        ),
      );
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_owner_changed',
        actor: human('alice'),
        payload: { owner_user_id: users.bob, previous_owner_user_id: null },
      });

      const removed = await cliJson('cases', 'assign', reference, '--no-owner', '--user', users.alice);
      expect(removed.case.owner_user_id).toBeNull();
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_owner_changed',
        payload: { owner_user_id: null, previous_owner_user_id: users.bob },
      });

      const outsider = await cli('cases', 'assign', reference, '--owner', users.dave, '--user', users.alice);
      expect(outsider).toMatchObject({
        code: 1,
        stderr: `error: The owner must be a member of the case group.\n  non_member_user_ids: ${users.dave}\n`,
      });
      const neither = await cli('cases', 'assign', reference, '--user', users.alice);
      expect(neither).toMatchObject({
        code: 2,
        stderr: 'error: --owner: give --owner <user id> or --no-owner\n',
      });
      expect((await cli('cases', 'assign', reference, '--owner', 'bob', '--user', users.alice)).code).toBe(2);
      expect((await stream(reference)).length).toBe(3);
    });

    it('adds and removes collaborators, members of the case group', async () => {
      const reference = await createCase();
      const added = await cliJson(
        'cases',
        'collaborators',
        'add',
        reference,
        users.bob,
        users.carol,
        '--user',
        users.alice,
      );
      expect(added.case.collaborator_user_ids).toEqual([users.bob, users.carol]);
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_collaborators_added',
        actor: human('alice'),
        payload: { user_ids: [users.bob, users.carol] },
      });

      const removed = await cliJson(
        'cases',
        'collaborators',
        'remove',
        reference,
        users.carol,
        '--user',
        users.alice,
      );
      expect(removed.case.collaborator_user_ids).toEqual([users.bob]);
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_collaborators_removed',
        payload: { user_ids: [users.carol] },
      });

      const outsider = await cli(
        'cases',
        'collaborators',
        'add',
        reference,
        users.dave,
        '--user',
        users.alice,
      );
      expect(outsider).toMatchObject({
        code: 1,
        stderr: `error: Collaborators must be members of the case group.\n  non_member_user_ids: ${users.dave}\n`,
      });
      const nobody = await cli(
        'cases',
        'collaborators',
        'remove',
        reference,
        users.carol,
        '--user',
        users.alice,
      );
      expect(nobody).toMatchObject({ code: 0, stdout: expect.stringContaining('Nothing recorded') });
      expect((await cli('cases', 'collaborators', 'add', reference, '--user', users.alice)).code).toBe(2);
      expect(
        (await cli('cases', 'collaborators', 'add', reference, 'x', '--user', users.alice)).stderr,
      ).toContain('<user_ids...>: must be a UUID');
      expect((await stream(reference)).length).toBe(3);
    });

    it('sets and clears the external reference', async () => {
      const reference = await createCase();
      const set = await cliJson(
        'cases',
        'set-external-reference',
        reference,
        '--value',
        'CRM-4411',
        '--user',
        users.alice,
      );
      expect(set.case.external_reference).toBe('CRM-4411');
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_external_reference_updated',
        actor: human('alice'),
        payload: { external_reference: 'CRM-4411', previous_external_reference: null },
      });
      await cliJson('cases', 'set-external-reference', reference, '--clear', '--user', users.alice);
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_external_reference_updated',
        payload: { external_reference: null, previous_external_reference: 'CRM-4411' },
      });
      for (const argv of [
        ['--value', 'A', '--clear'],
        [],
        ['--value', 'x'.repeat(201)],
        ['--value', '   '],
      ]) {
        const result = await cli(
          'cases',
          'set-external-reference',
          reference,
          ...argv,
          '--user',
          users.alice,
        );
        expect(result.code, argv.join(' ')).toBe(2);
        expect(result.stderr).toMatch(/^error: --value: /);
      }
      expect((await stream(reference)).length).toBe(3);
    });

    it('saves a draft decision and a decision reason; the case stays pending', async () => {
      const reference = await createCase();
      const draft = await cliJson(
        'cases',
        'draft-decision',
        reference,
        '--decision',
        'conditional_pass',
        '--notes',
        'Pending proof of address',
        '--user',
        users.nameless,
      );
      expect(draft.case.decision).toBe('pending_decision');
      expect(draft.decisionDraft).toMatchObject({
        decision: 'conditional_pass',
        notes: 'Pending proof of address',
      });
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_decision_draft_saved',
        // A user without a display name is named by email.
        actor: human('nameless', 'nameless@example.com'),
        payload: { decision: 'conditional_pass' },
        comment: 'Pending proof of address',
      });

      const reason = await cliJson(
        'cases',
        'decision-reason',
        reference,
        '--reason',
        'Director matched a PEP list; relationship is historical.',
        '--user',
        users.alice,
      );
      expect(reason.decisionReason).toBe('Director matched a PEP list; relationship is historical.');
      expect(await lastVisible(reference)).toMatchObject({
        event_type: 'case_decision_reason_saved',
        actor: human('alice'),
        comment: 'Director matched a PEP list; relationship is historical.',
      });

      for (const argv of [
        ['draft-decision', reference, '--decision', 'maybe'],
        ['draft-decision', reference, '--decision', 'pass', '--notes', 'n'.repeat(4001)],
        ['decision-reason', reference, '--reason', ''],
        ['decision-reason', reference, '--reason', 'r'.repeat(4001)],
      ]) {
        expect((await cli('cases', ...argv, '--user', users.alice)).code, argv.join(' ')).toBe(2);
      }
      expect((await stream(reference)).length).toBe(3);
    });

    it('stores an attached file before adding it to the case as a file material', async () => {
      const reference = await createCase();
      const file = path.join(dir, 'passport scan.pdf');
      const content = Buffer.from(`%PDF-1.7 test ${randomUUID()}`);
      await writeFile(file, content);
      const attached = await cliJson(
        'cases',
        'attach',
        reference,
        '--file',
        file,
        '--title',
        'Passport scan',
        '--note',
        'Certified copy',
        '--user',
        users.alice,
      );
      const event = await lastVisible(reference);
      expect(attached.events).toEqual([event]);
      expect(event).toMatchObject({
        event_type: 'case_attachment_added',
        actor: human('alice'),
        comment: 'Certified copy',
        payload: {
          material_type: 'file',
          title: 'Passport scan',
          attachments: [
            {
              attachment_id: attached.attachment.attachmentId,
              filename: 'passport scan.pdf',
              content_type: 'application/pdf',
              byte_size: content.length,
            },
          ],
        },
      });
      expect(attached.attachment).toMatchObject({ sha256: sha256Hex(content), byteSize: content.length });
      const stored = await findAttachmentFile(es.db.pool, attached.attachment.attachmentId);
      expect(stored).toMatchObject({
        caseReference: reference,
        filename: 'passport scan.pdf',
        contentType: 'application/pdf',
        byteSize: content.length,
        sha256: sha256Hex(content),
      });
      expect(stored!.content.equals(content)).toBe(true);
      expect(attached.case.materials).toEqual([
        expect.objectContaining({ type: 'file', title: 'Passport scan', status: 'available' }),
      ]);
      // The docs' query for files no event names (a crash between the two writes) does not list it.
      const orphans = await es.db.pool.query<{ attachment_id: string }>(
        `SELECT attachment_id FROM case_attachment_files f
          WHERE NOT EXISTS (SELECT 1 FROM es_events e
                             WHERE e.event_type = 'MaterialAdded'
                               AND e.data -> 'attachments' @> jsonb_build_array(jsonb_build_object('attachmentId', f.attachment_id)))`,
      );
      expect(orphans.rows.map((row) => row.attachment_id)).not.toContain(attached.attachment.attachmentId);
      const domainEvent = (await stream(reference)).at(-1)!.event;
      expect(domainEvent).toMatchObject({
        type: 'MaterialAdded',
        data: { attachments: [{ sha256: sha256Hex(content) }] },
      });

      const typed = path.join(dir, 'notes');
      await writeFile(typed, 'plain words');
      const text = await cli(
        'cases',
        'attach',
        reference,
        '--file',
        typed,
        '--title',
        'Call notes',
        '--content-type',
        'text/plain; charset=utf-8',
        '--user',
        users.alice,
      );
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(
        /^Recorded case_attachment_added on case .* File material "Call notes" added: notes, 11 bytes\n/,
      );
      expect(text.stdout).toMatch(
        /Stored attachment attachment_[0-9a-f]{24}: 11 bytes, sha256 [0-9a-f]{64}\n$/,
      );
      expect((await lastVisible(reference)).payload).toMatchObject({
        attachments: [{ content_type: 'text/plain; charset=utf-8', filename: 'notes' }],
      });
    });

    it('refuses files over 10 MiB, missing or empty ones, before writing anything', async () => {
      const reference = await createCase();
      const count = async () =>
        (await es.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM case_attachment_files'))
          .rows[0]!.n;
      const before = await count();
      const big = path.join(dir, 'big.bin');
      await writeFile(big, Buffer.alloc(10 * 1024 * 1024 + 1));
      const empty = path.join(dir, 'empty.txt');
      await writeFile(empty, '');
      const attach = (file: string, ...more: string[]) =>
        cli('cases', 'attach', reference, '--file', file, '--title', 'T', ...more, '--user', users.alice);

      const tooBig = await attach(big);
      expect(tooBig).toMatchObject({ code: 2 });
      expect(tooBig.stderr).toBe(
        `error: --file: ${big} is 10485761 bytes; attachments are limited to 10 MiB (10485760 bytes)\n`,
      );
      expect(await attach(path.join(dir, 'missing.pdf'))).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--file: cannot read'),
      });
      expect(await attach(empty)).toMatchObject({ code: 2, stderr: `error: --file: ${empty} is empty\n` });
      expect(await attach(dir)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('is not a regular file'),
      });
      expect((await attach(empty, '--content-type', 'pdf')).code).toBe(2);
      expect(await count()).toBe(before);
      expect((await stream(reference)).length).toBe(1);

      const exact = path.join(dir, 'exact.bin');
      await writeFile(exact, Buffer.alloc(10 * 1024 * 1024, 7));
      const ok = await cliJson(
        'cases',
        'attach',
        reference,
        '--file',
        exact,
        '--title',
        'Exactly 10 MiB',
        '--user',
        users.alice,
      );
      expect(ok.attachment).toMatchObject({
        byteSize: 10 * 1024 * 1024,
        contentType: 'application/octet-stream',
      });
    });

    it('acts only as a user of the case account, on a case that exists', async () => {
      const reference = await createCase();
      const foreign = await cli(
        'cases',
        'assign',
        reference,
        '--owner',
        users.bob,
        '--user',
        users.foreigner,
      );
      expect(foreign).toMatchObject({
        code: 1,
        stderr: `error: user ${users.foreigner} is not a user of account ${accountId}, which case ${reference} belongs to\n`,
      });
      const ghost = randomUUID();
      expect(
        await cli('cases', 'decision-reason', reference, '--reason', 'r', '--user', ghost),
      ).toMatchObject({
        code: 1,
        stderr: `error: no user ${ghost}\n`,
      });
      expect(
        await cli('cases', 'decision-reason', 'ZZZ000001', '--reason', 'r', '--user', users.alice),
      ).toMatchObject({
        code: 1,
        stderr: 'error: Case ZZZ000001 was not found.\n',
      });
      const file = path.join(dir, 'foreign.txt');
      await writeFile(file, 'x');
      expect(
        (await cli('cases', 'attach', reference, '--file', file, '--title', 'T', '--user', users.foreigner))
          .code,
      ).toBe(1);
      expect((await cli('cases', 'draft-decision', reference, '--decision', 'pass')).code).toBe(2);
      expect((await stream(reference)).length).toBe(1);
    });
  });
});
