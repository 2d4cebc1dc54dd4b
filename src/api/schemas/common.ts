import { z } from 'zod';

/** Schemas every resource shares; `.meta({id})` makes them named components in the OpenAPI document. */
export const Uuid = z.uuid();
export const DateTime = z.iso.datetime({ offset: true });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Machine-readable code from the Errors table.' }),
      message: z.string(),
      details: z.unknown().meta({
        description: 'null, or more about the failure; validation failures carry `fieldErrors`.',
      }),
    }),
    meta: z.object({ request_id: z.string() }),
  })
  .meta({ id: 'ErrorEnvelope' });

/** `{data, meta}` around a resource schema. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: z.object({ request_id: z.string() }) });
}
