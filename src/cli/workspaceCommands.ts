import type { Command } from 'commander';
import { z } from 'zod';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../workspace/slug.js';
import {
  addMembership,
  createGroup,
  createUser,
  createWorkspace,
  findAccount,
  type Group,
  listGroups,
} from '../workspace/workspaceStore.js';
import {
  type CommandHost,
  helpExamples,
  nameInput,
  parseInput,
  uuidInput,
  writeJson,
} from './commandSupport.js';
import { formatTable } from './table.js';

const json = z.boolean().optional();

const workspaceCreateInput = z.object({ name: nameInput, json });
const groupCreateInput = z.object({
  account: uuidInput,
  name: nameInput,
  slug: z
    .string()
    .max(SLUG_MAX_LENGTH, `must be at most ${SLUG_MAX_LENGTH} characters`)
    .regex(SLUG_PATTERN, 'must be lowercase words of a-z and 0-9 joined by "-"')
    .optional(),
  description: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
  json,
});
const groupListInput = z.object({ account: uuidInput, json });
const userCreateInput = z.object({
  account: uuidInput,
  email: z.email('must be an email address'),
  name: nameInput.optional(),
  json,
});
const membershipAddInput = z.object({ group: uuidInput, user: uuidInput, json });

/** Accounts, groups, users and memberships: `workspace`, `groups`, `users`, `memberships`. */
export function registerWorkspaceCommands(program: Command, { io, inContext }: CommandHost): void {
  program
    .command('workspace')
    .description('Accounts')
    .addHelpText('after', helpExamples('workspace create --name "Northwind Payments"'))
    .command('create')
    .description('Create an account with its default group')
    .addHelpText('after', helpExamples('workspace create --name "Northwind Payments" --json'))
    .requiredOption('--name <name>', 'account name')
    .option('--json', 'print {accountId, name, defaultGroupId, createdAt}')
    .action(async (options) => {
      const input = parseInput(workspaceCreateInput, options);
      await inContext(async ({ pool }) => {
        const { account, defaultGroup } = await createWorkspace(pool, { name: input.name });
        if (input.json) {
          writeJson(io, {
            accountId: account.id,
            name: account.name,
            defaultGroupId: defaultGroup.id,
            createdAt: account.createdAt,
          });
        } else {
          io.stdout.write(`Created account ${account.id} "${account.name}"\n`);
          io.stdout.write(`Default group ${defaultGroup.id} (${defaultGroup.slug})\n`);
        }
        return 0;
      });
    });

  const groups = program
    .command('groups')
    .description('Groups of an account')
    .addHelpText(
      'after',
      helpExamples(
        'groups create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --name "Enhanced due diligence"',
        'groups list --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
      ),
    );
  groups
    .command('create')
    .description('Create a further group in an account')
    .addHelpText(
      'after',
      helpExamples(
        'groups create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --name "Enhanced due diligence" --description "High-risk customers, reviewed by the second line"',
      ),
    )
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'group name')
    .option('--slug <slug>', 'unique in the account; derived from the name when omitted')
    .option('--description <text>', 'free text')
    .option('--json', 'print the group')
    .action(async (options) => {
      const input = parseInput(groupCreateInput, options);
      await inContext(async ({ pool }) => {
        const group = await createGroup(pool, {
          accountId: input.account,
          name: input.name,
          slug: input.slug,
          description: input.description || null,
        });
        if (input.json) writeJson(io, { ...group });
        else io.stdout.write(`Created group ${group.id} (${group.slug}) in account ${group.accountId}\n`);
        return 0;
      });
    });
  groups
    .command('list')
    .description("An account's groups, the default one first")
    .addHelpText('after', helpExamples('groups list --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --json'))
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print {accountId, groups: [...]}')
    .action(async (options) => {
      const input = parseInput(groupListInput, options);
      await inContext(async ({ pool }) => {
        if (!(await findAccount(pool, input.account))) {
          io.stderr.write(`error: no account ${input.account}\n`);
          return 1;
        }
        const list = await listGroups(pool, input.account);
        if (input.json) writeJson(io, { accountId: input.account, groups: list });
        else
          io.stdout.write(formatTable(['ID', 'SLUG', 'NAME', 'DEFAULT', 'DESCRIPTION'], list.map(groupRow)));
        return 0;
      });
    });

  program
    .command('users')
    .description('Users of an account')
    .addHelpText(
      'after',
      helpExamples(
        'users create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --email m.lindqvist@northwind.example --name "Maja Lindqvist"',
      ),
    )
    .command('create')
    .description('Create a user in an account')
    .addHelpText(
      'after',
      helpExamples(
        'users create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --email m.lindqvist@northwind.example --name "Maja Lindqvist"',
      ),
    )
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'unique in the account, case-insensitively')
    .option('--name <name>', 'display name')
    .option('--json', 'print the user')
    .action(async (options) => {
      const input = parseInput(userCreateInput, options);
      await inContext(async ({ pool }) => {
        const user = await createUser(pool, {
          accountId: input.account,
          email: input.email,
          displayName: input.name,
        });
        if (input.json) writeJson(io, { ...user });
        else io.stdout.write(`Created user ${user.id} <${user.email}> in account ${user.accountId}\n`);
        return 0;
      });
    });

  program
    .command('memberships')
    .description('Which users belong to which groups')
    .addHelpText(
      'after',
      helpExamples(
        'memberships add --group 1874f46d-7842-47ea-bad4-ff8022860f0e --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
      ),
    )
    .command('add')
    .description('Add a user to a group of the same account')
    .addHelpText(
      'after',
      helpExamples(
        'memberships add --group 1874f46d-7842-47ea-bad4-ff8022860f0e --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
      ),
    )
    .requiredOption('--group <id>', 'group id')
    .requiredOption('--user <id>', 'user id')
    .option('--json', 'print {groupId, userId, outcome}')
    .action(async (options) => {
      const input = parseInput(membershipAddInput, options);
      await inContext(async ({ pool }) => {
        const outcome = await addMembership(pool, { groupId: input.group, userId: input.user });
        if (input.json) writeJson(io, { groupId: input.group, userId: input.user, outcome });
        else if (outcome === 'added') io.stdout.write(`Added user ${input.user} to group ${input.group}\n`);
        else io.stdout.write(`User ${input.user} already belongs to group ${input.group}\n`);
        return 0;
      });
    });
}

function groupRow(group: Group): string[] {
  return [group.id, group.slug, group.name, group.isDefault ? 'yes' : '', group.description ?? ''];
}
