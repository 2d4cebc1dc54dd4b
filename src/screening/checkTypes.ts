/**
 * The screening check types of the API and the FtM topics that select listed entities for each:
 * the one place this mapping lives (docs/screening-sources.md, "Check types and topics").
 */
export const CHECK_TYPES = ['sanctions', 'pep', 'business_entity_risk'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

const TOPICS_BY_CHECK_TYPE: Readonly<Record<CheckType, readonly string[]>> = {
  sanctions: ['sanction', 'sanction.linked'],
  pep: ['role.pep', 'role.rca'],
  business_entity_risk: [
    'debarment',
    'export.control',
    'export.control.linked',
    'corp.disqual',
    'reg.action',
    'reg.warn',
    'crime.fin',
    'gov.soe',
  ],
};

export function isCheckType(value: string): value is CheckType {
  return (CHECK_TYPES as readonly string[]).includes(value);
}

/** The topics an entity needs (any one of them) to be screened in a check of this type. */
export function topicsForCheckType(type: CheckType): readonly string[] {
  return TOPICS_BY_CHECK_TYPE[type];
}

/** The check types an entity with these topics is screened in, in CHECK_TYPES order. */
export function checkTypesOfEntity(topics: readonly string[]): CheckType[] {
  return CHECK_TYPES.filter((type) => TOPICS_BY_CHECK_TYPE[type].some((topic) => topics.includes(topic)));
}
