import type { CreateCaseDeps } from '../createCase.js';

/** What the case endpoints need: the database, the event store, the clock and the staleness limit. */
export type CaseRouteDependencies = CreateCaseDeps;
