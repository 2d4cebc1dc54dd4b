import type { Command } from 'commander';
import { z } from 'zod';
import { CASE_REFERENCE } from '../../cases/references.js';
import { isoDateTimeInput, uuidInput } from '../commandSupport.js';

/** The validated inputs of `casescreen cases ...`, and the shape every command on one case shares. */

export const json = z.boolean().optional();
export const caseReference = z
  .string()
  .regex(CASE_REFERENCE, 'must be a case reference: three capital letters and six digits, e.g. ABC123456');
const user = uuidInput;
const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
export const LABELS = { caseReference: '<case_reference>', userIds: '<user_ids...>' };

export const FINAL_DECISIONS = ['pass', 'conditional_pass', 'fail'] as const;

export const historyInput = z.object({ caseReference, asOf: isoDateTimeInput.optional(), json });
export const showInput = z.object({ caseReference, json });
export const moveInput = z.object({ caseReference, group: uuidInput, user, json });
export const assignInput = z
  .object({ caseReference, owner: z.union([z.string(), z.literal(false)]).optional(), user, json })
  .superRefine((input, ctx) => {
    if (input.owner === undefined) {
      ctx.addIssue({ code: 'custom', path: ['owner'], message: 'give --owner <user id> or --no-owner' });
    } else if (input.owner !== false && !uuidInput.safeParse(input.owner).success) {
      ctx.addIssue({ code: 'custom', path: ['owner'], message: 'must be a UUID' });
    }
  });
export const collaboratorsInput = z.object({
  caseReference,
  userIds: z.array(uuidInput).min(1, 'name at least one user').max(50, 'at most 50 users at a time'),
  user,
  json,
});
export const externalReferenceInput = z
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
export const draftInput = z.object({
  caseReference,
  decision: z.enum(FINAL_DECISIONS, `must be one of ${FINAL_DECISIONS.join(', ')}`),
  notes: z.string().trim().max(4000, 'must be at most 4000 characters').optional(),
  user,
  json,
});
export const reasonInput = z.object({ caseReference, reason: text(4000), user, json });
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[^\s;=]+=[^;]+)*$/i;
export const attachInput = z.object({
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

/** A `cases` subcommand on one case: its name, description and `<case_reference>` argument. */
export function caseCommand(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).argument('<case_reference>', 'e.g. ABC123456');
}
