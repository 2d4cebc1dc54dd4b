import { z } from 'zod';
import {
  MONITORING_CONFIG_ID,
  MONITORING_RESULTS,
  MONITORING_STATUSES,
  RESOLUTION_STATUSES,
} from '../../monitoring/monitoringEvents.js';
import { DEFAULT_OPERATOR_LIST, MAX_OPERATOR_LIST } from '../../monitoring/monitoringOperations.js';
import { SUBJECT_REFERENCE } from '../../subjects/subjectEvents.js';
import { uuidInput } from '../commandSupport.js';

/** The validated inputs of `casescreen monitoring ...`. */

export const LABELS = { monitoringConfigId: '<mon_id>' };

const json = z.boolean().optional();
const monitoringConfigId = z
  .string()
  .regex(MONITORING_CONFIG_ID, 'must be a monitoring configuration id (mon_<hex>)');
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, `must be one of ${values.join(', ')}`);

function limit(defaultValue: number) {
  const message = `must be a whole number from 1 to ${MAX_OPERATOR_LIST}`;
  return z.coerce
    .number(message)
    .int(message)
    .min(1, message)
    .max(MAX_OPERATOR_LIST, message)
    .default(defaultValue);
}

export const listInput = z.object({
  account: uuidInput.optional(),
  status: oneOf(MONITORING_STATUSES).optional(),
  result: oneOf(MONITORING_RESULTS).optional(),
  subject: z
    .string()
    .regex(SUBJECT_REFERENCE, 'must be a subject reference (sub_ and 24 hex digits)')
    .optional(),
  limit: limit(DEFAULT_OPERATOR_LIST),
  json,
});
export const showInput = z.object({ monitoringConfigId, json });
export const runsInput = z.object({ monitoringConfigId, limit: limit(25), json });
export const alertsInput = z.object({
  monitoringConfigId,
  status: oneOf(RESOLUTION_STATUSES).optional(),
  limit: limit(25),
  json,
});
export const rerunInput = z.object({
  monitoringConfigId,
  reason: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(2000, 'must be at most 2000 characters')
    .optional(),
  evenIfPaused: z.boolean().optional(),
  json,
});
export const sweepsInput = z.object({ limit: limit(20), json });
export const historyInput = z.object({ monitoringConfigId, json });
