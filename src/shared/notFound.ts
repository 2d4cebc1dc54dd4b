/**
 * The one not-found text of each kind of object, said the same way by the API and the CLI: a
 * missing object and one the caller may not see read alike, so references cannot be probed.
 */
const KIND_NAMES = {
  case: 'Case',
  check: 'Check',
  match: 'Match',
  subject: 'Subject',
  group: 'Group',
  monitoringConfig: 'Monitoring configuration',
} as const;

export type ObjectKind = keyof typeof KIND_NAMES;

export function notFoundText(kind: ObjectKind, id: string): string {
  return `${KIND_NAMES[kind]} ${id} was not found.`;
}
