import type { ScreeningMatch } from '../../screening/index/screeningIndex.js';
import type { ListedEntity } from '../../screening/model/listedEntity.js';
import { formatTable } from '../table.js';

/** A match as `screen` prints it: in full (one subject's JSON), in brief (a batch line), in a table. */

/** Everything about the match and why it scored as it did. */
export function matchJson(match: ScreeningMatch) {
  return {
    entity_id: match.entity.id,
    name: primaryName(match.entity),
    matched_name: match.explanation.matchedName,
    score: match.explanation.score,
    match_type: match.explanation.matchType,
    topics: match.entity.topics,
    datasets: match.entity.datasets,
    source_record_ref: match.entity.sourceRecordRef,
    snapshot_id: match.snapshotId,
    reason: match.explanation.reason,
    supporting_fields: match.explanation.supportingFields,
  };
}

/** Who matched, how well and on which lists: a batch writes one line per subject. */
export function briefMatchJson(match: ScreeningMatch) {
  return {
    entity_id: match.entity.id,
    name: primaryName(match.entity),
    score: match.explanation.score,
    match_type: match.explanation.matchType,
    topics: match.entity.topics,
    datasets: match.entity.datasets,
  };
}

/** The matches in rank order, one row each. */
export function matchTable(matches: readonly ScreeningMatch[]): string {
  return formatTable(
    ['RANK', 'SCORE', 'MATCH TYPE', 'MATCHED NAME', 'ENTITY', 'DATASETS', 'TOPICS'],
    matches.map((match, rank) => [
      String(rank + 1),
      match.explanation.score.toFixed(3),
      match.explanation.matchType,
      match.explanation.matchedName,
      match.entity.id,
      match.entity.datasets.join(','),
      match.entity.topics.join(','),
    ]),
  );
}

function primaryName(entity: ListedEntity): string {
  return (entity.names.find((name) => name.kind === 'primary') ?? entity.names[0])?.full ?? '';
}
