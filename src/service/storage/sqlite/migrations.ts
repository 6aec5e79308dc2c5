/** Numbered schema migrations. Append new ones; never edit one that has shipped. */
import { libraryReplaysSql } from '../sql/replays-schema';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE orgs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  license TEXT NOT NULL DEFAULT 'active' CHECK (license IN ('active', 'inactive')),
  quota_per_minute INTEGER,
  upload_requires_manager INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  username TEXT NOT NULL,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'repository_manager', 'member')),
  created_at TEXT NOT NULL,
  UNIQUE (org_id, username)
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  read_only INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  UNIQUE (org_id, name)
);

CREATE TABLE team_members (
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'member',
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE offerings (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('service', 'product', 'module')),
  UNIQUE (org_id, name)
);

CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  purpose TEXT NOT NULL CHECK (purpose IN ('repository', 'questionnaire')),
  original_filename TEXT NOT NULL,
  stored_name TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  file_format TEXT NOT NULL DEFAULT '',
  document_type TEXT NOT NULL DEFAULT 'unknown',
  status TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'processing', 'ready', 'failed')),
  processing_stage TEXT NOT NULL DEFAULT 'queued',
  processing_percent INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  analysis_type TEXT,
  scope_includes_company INTEGER NOT NULL DEFAULT 1,
  use_as_source INTEGER NOT NULL DEFAULT 1,
  passage_count INTEGER NOT NULL DEFAULT 0,
  qa_count INTEGER NOT NULL DEFAULT 0,
  data_count INTEGER NOT NULL DEFAULT 0,
  total_embeddings INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX files_org_purpose ON files (org_id, purpose, created_at);

CREATE TABLE tags (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  UNIQUE (org_id, name)
);

CREATE TABLE file_tags (
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (file_id, tag_id)
);

CREATE TABLE file_offerings (
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  offering_id INTEGER NOT NULL REFERENCES offerings(id) ON DELETE CASCADE,
  PRIMARY KEY (file_id, offering_id)
);

CREATE TABLE chat_sessions (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL DEFAULT 'New Chat',
  title_is_set INTEGER NOT NULL DEFAULT 0,
  is_archived INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX chat_sessions_user ON chat_sessions (user_id, updated_at);

CREATE TABLE chat_messages (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
  sender TEXT NOT NULL CHECK (sender IN ('user', 'assistant')),
  content TEXT NOT NULL,
  is_edited INTEGER NOT NULL DEFAULT 0,
  metadata TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX chat_messages_session ON chat_messages (session_id, id);

CREATE TABLE chat_message_sources (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES chat_messages(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  relevance_score REAL NOT NULL,
  content TEXT NOT NULL,
  source_file TEXT NOT NULL,
  file_id INTEGER,
  page_number INTEGER NOT NULL,
  context_header TEXT NOT NULL DEFAULT '',
  source_url TEXT NOT NULL DEFAULT '',
  rank INTEGER NOT NULL
);
CREATE INDEX chat_message_sources_message ON chat_message_sources (message_id);

CREATE TABLE questionnaires (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  file_id INTEGER NOT NULL REFERENCES files(id),
  client TEXT,
  document_type TEXT NOT NULL DEFAULT 'questionnaire',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('ready', 'draft', 'in_review', 'approved')),
  visibility TEXT NOT NULL DEFAULT 'organization' CHECK (visibility IN ('organization', 'team')),
  team_id INTEGER REFERENCES teams(id),
  generation_status TEXT NOT NULL DEFAULT 'idle' CHECK (generation_status IN ('idle', 'generating', 'complete')),
  detected_language TEXT NOT NULL DEFAULT 'en',
  language_override TEXT,
  scope_includes_company INTEGER NOT NULL DEFAULT 1,
  advanced_options TEXT NOT NULL DEFAULT '{}',
  warnings TEXT NOT NULL DEFAULT '[]',
  submitted_for_review_at TEXT,
  approved_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX questionnaires_org ON questionnaires (org_id, id);

CREATE TABLE questionnaire_reviewers (
  questionnaire_id INTEGER NOT NULL REFERENCES questionnaires(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (questionnaire_id, user_id)
);

CREATE TABLE questionnaire_offerings (
  questionnaire_id INTEGER NOT NULL REFERENCES questionnaires(id) ON DELETE CASCADE,
  offering_id INTEGER NOT NULL REFERENCES offerings(id) ON DELETE CASCADE,
  PRIMARY KEY (questionnaire_id, offering_id)
);

CREATE TABLE questions (
  id INTEGER PRIMARY KEY,
  questionnaire_id INTEGER NOT NULL REFERENCES questionnaires(id) ON DELETE CASCADE,
  original_id TEXT,
  text TEXT NOT NULL,
  tab_name TEXT NOT NULL,
  section_path TEXT NOT NULL DEFAULT '[]',
  ord INTEGER NOT NULL,
  row INTEGER NOT NULL,
  question_coordinate TEXT NOT NULL,
  block INTEGER NOT NULL,
  answer_slots TEXT NOT NULL DEFAULT '[]',
  needs_filling INTEGER NOT NULL DEFAULT 1,
  flagged_for_review INTEGER NOT NULL DEFAULT 0,
  selected_answer_id INTEGER,
  security_control TEXT,
  category TEXT
);
CREATE INDEX questions_questionnaire ON questions (questionnaire_id, ord);

CREATE TABLE answers (
  id INTEGER PRIMARY KEY,
  question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  evaluation TEXT,
  facts_summary TEXT,
  slot_responses TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'approved')),
  method TEXT NOT NULL DEFAULT 'none',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX answers_question ON answers (question_id);

CREATE TABLE answer_evidence (
  id INTEGER PRIMARY KEY,
  answer_id INTEGER NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  content TEXT NOT NULL,
  filename TEXT NOT NULL,
  file_id INTEGER NOT NULL,
  page_number INTEGER NOT NULL,
  section_path TEXT NOT NULL DEFAULT '[]',
  tab_name TEXT NOT NULL DEFAULT '',
  relevance_score REAL NOT NULL,
  rank INTEGER NOT NULL,
  passage_id INTEGER,
  qna_id INTEGER,
  context_header TEXT NOT NULL DEFAULT '',
  question_text TEXT,
  source_location TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX answer_evidence_answer ON answer_evidence (answer_id);

CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_claim ON jobs (kind, state, id);
`,
  },
  {
    version: 2,
    name: 'worker lease',
    sql: `
-- One row: which service process runs the background jobs of this data folder, until when.
CREATE TABLE worker_lease (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  token TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
`,
  },
  {
    version: 3,
    name: 'shared request quota',
    sql: `
-- The current one-minute quota window of each organisation, shared by every service process.
CREATE TABLE quota_windows (
  org_id INTEGER PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
`,
  },
  {
    version: 4,
    name: 'job leases',
    sql: `
-- Who runs a job and until when (renewed by its worker): a job whose lease ran out is claimed again.
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
`,
  },
  {
    version: 5,
    name: 'answer library replay runs',
    sql: libraryReplaysSql('sqlite'),
  },
];
