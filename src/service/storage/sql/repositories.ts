/** Every repository of the boundary on one executor (a connection, or a transaction's). */
import { SqlKeys, SqlOfferings, SqlOrgs, SqlTeams, SqlUsers } from './accounts';
import { SqlSessions } from './chat';
import type { Sql } from './executor';
import { SqlFiles } from './files';
import { SqlLibrary } from './library';
import { SqlQuestionnaires } from './questionnaires';
import { SqlReplays } from './replays';
import type { Repositories } from '../types';

export function repositories(sql: Sql): Repositories {
  return {
    orgs: new SqlOrgs(sql),
    users: new SqlUsers(sql),
    keys: new SqlKeys(sql),
    teams: new SqlTeams(sql),
    offerings: new SqlOfferings(sql),
    files: new SqlFiles(sql),
    sessions: new SqlSessions(sql),
    questionnaires: new SqlQuestionnaires(sql),
    library: new SqlLibrary(sql),
    replays: new SqlReplays(sql),
  };
}
