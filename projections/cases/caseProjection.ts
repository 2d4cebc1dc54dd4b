import type { CaseState } from '../../src/cases/caseState.js';
import { caseStream } from '../../src/cases/caseStream.js';
import { singleStreamProjection } from '../singleStreamProjection.js';

/**
 * One row per case: its state as the case stream's `evolve` folds it, with the account and group
 * lifted out for scoped listings. docs/case-read-model.md describes it, and how the GET endpoints
 * read it.
 */
export const caseViewsProjection = singleStreamProjection({
  name: 'case_views',
  version: 1,
  table: 'case_views',
  stream: caseStream,
  idColumn: 'case_reference',
  columns: {
    account_id: { type: 'uuid', value: (state: CaseState) => state.accountId },
    group_id: { type: 'uuid', value: (state: CaseState) => state.groupId },
    created_at: { type: 'timestamptz', value: (state: CaseState) => state.createdAt },
    updated_at: { type: 'timestamptz', value: (state: CaseState) => state.updatedAt },
  },
  indexes: { account_group: ['account_id', 'group_id'] },
});
