import { z } from 'zod';
import { DateTime, Uuid } from '../../api/commonSchemas.js';
import { GROUP_EXAMPLE } from '../../api/examples.js';

export const Group = z
  .object({
    id: Uuid,
    account_id: Uuid,
    name: z.string(),
    slug: z.string(),
    is_default: z.boolean(),
    description: z.string().nullable().optional(),
    created_at: DateTime.optional(),
    updated_at: DateTime.optional(),
  })
  .meta({ id: 'Group', examples: [GROUP_EXAMPLE] });
