import type { Command } from 'commander';
import { z } from 'zod';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import {
  ACTOR_TYPES,
  finalDecisionProblem,
  keyStatus,
  parseGroupList,
  parseScopeList,
  SCOPES,
} from '../workspace/keyPolicy.js';
import { createApiKey, expireApiKey, listApiKeys, revokeApiKey } from '../workspace/keyStore.js';
import { findAccount } from '../workspace/workspaceStore.js';
import {
  type CommandHost,
  helpExamples,
  isoDateTimeInput,
  nameInput,
  parseInput,
  uuidInput,
  viaParser,
  writeJson,
} from './commandSupport.js';
import { formatTable } from './table.js';

const json = z.boolean().optional();

const keyCreateInput = z
  .object({
    account: uuidInput,
    scopes: z.string().transform(viaParser(parseScopeList)),
    actor: z.enum(ACTOR_TYPES, `must be one of ${ACTOR_TYPES.join(', ')}`),
    finalDecision: z.boolean().default(false),
    groups: z.string().optional().transform(viaParser(parseGroupList)),
    expiresAt: isoDateTimeInput.optional(),
    name: nameInput.optional(),
    json,
  })
  .superRefine((input, ctx) => {
    const problem = finalDecisionProblem(input.actor, input.finalDecision);
    if (problem) ctx.addIssue({ code: 'custom', path: ['finalDecision'], message: problem });
  });
const keyListInput = z.object({ account: uuidInput, json });
const keyRevokeInput = z.object({ id: uuidInput, json });
const keyExpireInput = z.object({ id: uuidInput, at: isoDateTimeInput.optional(), json });
const ID_LABEL = { id: '<id>' };

/** `keys create|list|revoke|expire`. A raw key is printed once, by `create`, and never again. */
export function registerKeyCommands(program: Command, { io, inContext }: CommandHost): void {
  const keys = program
    .command('keys')
    .description('API keys')
    .addHelpText(
      'after',
      helpExamples(
        'keys create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --scopes all --actor api_client --name onboarding-service',
        'keys list --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
        'keys revoke 711eeba3-e805-41eb-a99e-546dc26e1015',
      ),
    );
  keys
    .command('create')
    .description('Create an API key and print it once; only its hash is stored')
    .addHelpText(
      'after',
      helpExamples(
        'keys create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --scopes all --actor api_client --final-decision --name onboarding-service',
        'keys create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --scopes cases:read,checks:read,matches:review,materials:write --actor agent --name triage-agent --expires-at 2027-01-31T00:00:00Z',
      ),
    )
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--scopes <list>', `"all" or a comma list of: ${SCOPES.join(', ')}`)
    .requiredOption('--actor <type>', 'api_client or agent')
    .option('--final-decision', 'may record final case decisions (api_client keys only)')
    .option(
      '--groups <ids>',
      'comma list of group ids, or "all" (every current group); default: the default group',
    )
    .option('--expires-at <iso>', 'expiry, an ISO 8601 date-time with a time zone')
    .option('--name <name>', 'a label for operators; default "<actor> key"')
    .option('--json', 'print {keyId, apiKey, keyPrefix, accountId, name, scopes, ...}')
    .action(async (options) => {
      const input = parseInput(keyCreateInput, options);
      await inContext(async ({ pool, clock }) => {
        const { key, rawKey } = await createApiKey(
          pool,
          {
            accountId: input.account,
            name: input.name,
            scopes: input.scopes,
            actorType: input.actor,
            finalDecision: input.finalDecision,
            groups: input.groups,
            expiresAt: input.expiresAt ?? null,
          },
          clock(),
        );
        if (input.json) {
          const { id, ...rest } = describeKey(key, clock());
          writeJson(io, { keyId: id, apiKey: rawKey, ...rest });
        } else {
          io.stdout.write(
            `Created ${key.actorType} key ${key.id} "${key.name}" for account ${key.accountId}\n`,
          );
          io.stdout.write(`API key (shown only now, store it safely): ${rawKey}\n`);
        }
        return 0;
      });
    });

  keys
    .command('list')
    .description("An account's keys with their status; never shows secrets")
    .addHelpText('after', helpExamples('keys list --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da'))
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print {accountId, keys: [...]}')
    .action(async (options) => {
      const input = parseInput(keyListInput, options);
      await inContext(async ({ pool, clock }) => {
        if (!(await findAccount(pool, input.account))) {
          io.stderr.write(`error: no account ${input.account}\n`);
          return 1;
        }
        const list = await listApiKeys(pool, input.account);
        const now = clock();
        if (input.json) {
          writeJson(io, { accountId: input.account, keys: list.map((key) => describeKey(key, now)) });
          return 0;
        }
        io.stdout.write(
          formatTable(
            [
              'ID',
              'NAME',
              'KEY',
              'ACTOR',
              'FINAL DECISION',
              'SCOPES',
              'GROUPS',
              'STATUS',
              'EXPIRES',
              'LAST USED',
            ],
            list.map((key) => [
              key.id,
              key.name,
              `csk_${key.keyPrefix}_…`,
              key.actorType,
              key.finalDecision ? 'yes' : 'no',
              key.scopes.length === SCOPES.length ? 'all' : key.scopes.join(','),
              String(key.groupIds.length),
              keyStatus(key, now),
              key.expiresAt?.toISOString() ?? '-',
              key.lastUsedAt?.toISOString() ?? '-',
            ]),
          ),
        );
        return 0;
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key at once, for good')
    .addHelpText('after', helpExamples('keys revoke 711eeba3-e805-41eb-a99e-546dc26e1015'))
    .argument('<id>', 'key id')
    .option('--json', 'print {keyId, outcome, revokedAt}')
    .action(async (id: string, options) => {
      const input = parseInput(keyRevokeInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const result = await revokeApiKey(pool, input.id, clock());
        if (result.outcome === 'unknown') {
          io.stderr.write(`error: no API key ${input.id}\n`);
          return 1;
        }
        const revokedAt = result.key.revokedAt!;
        if (input.json) writeJson(io, { keyId: input.id, outcome: result.outcome, revokedAt });
        else if (result.outcome === 'revoked') io.stdout.write(`Revoked key ${input.id}\n`);
        else io.stdout.write(`Key ${input.id} was already revoked at ${revokedAt.toISOString()}\n`);
        return 0;
      });
    });

  keys
    .command('expire')
    .description('Make a key expire now or at a given time; only ever brings an expiry earlier')
    .addHelpText(
      'after',
      helpExamples('keys expire 711eeba3-e805-41eb-a99e-546dc26e1015 --at 2026-12-31T23:59:59Z'),
    )
    .argument('<id>', 'key id')
    .option('--at <iso>', 'when, an ISO 8601 date-time with a time zone; default now')
    .option('--json', 'print {keyId, outcome, expiresAt}')
    .action(async (id: string, options) => {
      const input = parseInput(keyExpireInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const result = await expireApiKey(pool, input.id, input.at ?? clock());
        switch (result.outcome) {
          case 'unknown':
            io.stderr.write(`error: no API key ${input.id}\n`);
            return 1;
          case 'revoked':
            io.stderr.write(`error: key ${input.id} is revoked; its expiry no longer matters\n`);
            return 1;
          case 'expires-earlier':
            io.stderr.write(
              `error: key ${input.id} already expires at ${result.key.expiresAt!.toISOString()}; ` +
                'an expiry can only be brought earlier (create a new key instead)\n',
            );
            return 1;
          case 'expired': {
            const expiresAt = result.key.expiresAt!;
            if (input.json) writeJson(io, { keyId: input.id, outcome: 'expired', expiresAt });
            else io.stdout.write(`Key ${input.id} expires at ${expiresAt.toISOString()}\n`);
            return 0;
          }
        }
      });
    });
}

/** A key for output: everything but secrets (the record holds none), plus its status. */
function describeKey(key: ApiKeyRecord, now: Date) {
  return {
    id: key.id,
    accountId: key.accountId,
    name: key.name,
    keyPrefix: key.keyPrefix,
    scopes: key.scopes,
    actorType: key.actorType,
    finalDecision: key.finalDecision,
    groupIds: key.groupIds,
    status: keyStatus(key, now),
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
  };
}
