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
    // IMMEDIATE: take the write lock up front, so another process writing meanwhile makes us wait
    // (busy_timeout) instead of failing with SQLITE_BUSY when a read would have to become a write.
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
  };
}
