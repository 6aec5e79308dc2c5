/** The SQLite implementation of the storage boundary. */
import type { Db } from './database';
import type { Store } from '../types';
import { SqliteKeys, SqliteOfferings, SqliteOrgs, SqliteTeams, SqliteUsers } from './accounts';
import { SqliteFiles } from './files';
import { SqliteSessions } from './chat';
import { SqliteQuestionnaires } from './questionnaires';

export function createSqliteStore(db: Db): Store {
  const files = new SqliteFiles(db);
  return {
    orgs: new SqliteOrgs(db),
    users: new SqliteUsers(db),
    keys: new SqliteKeys(db),
    teams: new SqliteTeams(db),
    offerings: new SqliteOfferings(db),
    files,
    sessions: new SqliteSessions(db),
    questionnaires: new SqliteQuestionnaires(db, files),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}
