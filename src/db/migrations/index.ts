import { eventStoreMigration } from './0001_eventStore.js';
import { subscriptionsMigration } from './0002_subscriptions.js';
import { workspaceMigration } from './0003_workspace.js';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Applied in id order, each in its own transaction; never edit one that has shipped. */
export const migrations: Migration[] = [eventStoreMigration, subscriptionsMigration, workspaceMigration];
