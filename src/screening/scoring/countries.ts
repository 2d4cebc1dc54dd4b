/**
 * Country agreement between a subject and a listed party: the subject's countries against every
 * country the record ties the party to (nationality, citizenship, birth place, addresses, flag,
 * issuing countries of its documents, the regime of its listing).
 *
 * - agree: at least one country in common;
 * - conflict: both sides name countries and none is shared;
 * - missing: either side names none.
 *
 * Lists tie a party to many countries, so sharing one is modest evidence; sharing none when the
 * list names several is real evidence against (the scorer weighs them accordingly).
 */
export type CountryOutcome = 'agree' | 'conflict' | 'missing';

export interface CountryComparison {
  outcome: CountryOutcome;
  /** Countries on both sides, or empty. */
  shared: string[];
  subject: string[];
  record: string[];
}

export function compareCountries(
  subject: readonly string[],
  listedCountries: readonly string[],
): CountryComparison {
  const base = { subject: [...subject], record: [...listedCountries] };
  if (subject.length === 0 || listedCountries.length === 0)
    return { outcome: 'missing', shared: [], ...base };
  const shared = subject.filter((country) => listedCountries.includes(country));
  return { outcome: shared.length > 0 ? 'agree' : 'conflict', shared, ...base };
}
