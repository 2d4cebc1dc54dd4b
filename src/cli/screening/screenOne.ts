import type pg from 'pg';
import type { ScreeningProfile } from '../../screening/scoring/profiles.js';
import { formatSubjectBirthDate, type ScreeningSubject } from '../../screening/scoring/query.js';
import { writeJson } from '../commandSupport.js';
import type { CliIo } from '../io.js';
import { matchJson, matchTable } from './matchOutput.js';
import type { ScreenInput } from './screenFlags.js';
import { describeScreening, search, withScreening } from './screeningSet.js';

/** `screen --name`: one subject, its matches as a table, or as one JSON object with `--json`. */
export function screenOne(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
  subject: ScreeningSubject,
): Promise<number> {
  return withScreening(pool, io, input, profile, async (set) => {
    const matches = search(set, subject, input, profile);
    if (input.json) {
      writeJson(io, {
        subject: subjectJson(subject),
        profile: { id: profile.id, threshold: profile.threshold },
        check_types: set.checkTypes,
        missing_check_types: set.missingCheckTypes,
        snapshots: set.loaded.snapshots.map(({ id, dataset, version }) => ({ id, dataset, version })),
        matches: matches.map(matchJson),
      });
      return 0;
    }
    io.stdout.write(describeScreening(set, profile, input));
    io.stdout.write(`Subject: ${describeSubject(subject)}\n\n`);
    if (matches.length === 0) {
      io.stdout.write(`No matches at or above ${profile.threshold}\n`);
      return 0;
    }
    io.stdout.write(matchTable(matches));
    return 0;
  });
}

function subjectJson(subject: ScreeningSubject) {
  return {
    name: subject.name,
    type: subject.kind,
    birth_date: subject.birthDate ?? null,
    countries: subject.countries,
    identifiers: subject.identifiers,
  };
}

function describeSubject(subject: ScreeningSubject): string {
  const parts = [`"${subject.name}"`, `type ${subject.kind}`];
  if (subject.birthDate) parts.push(`born ${formatSubjectBirthDate(subject.birthDate)}`);
  if (subject.countries.length > 0) parts.push(`countries ${subject.countries.join(', ')}`);
  if (subject.identifiers.length > 0) {
    parts.push(`identifiers ${subject.identifiers.map((i) => `${i.scheme}:${i.value}`).join(', ')}`);
  }
  return parts.join(', ');
}
