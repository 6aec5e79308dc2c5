/** Who may see and do what with a questionnaire. */
import type { Principal, QuestionnaireRecord } from '../storage/types';

export function canSeeQuestionnaire(p: Principal, q: QuestionnaireRecord): boolean {
  if (q.org_id !== p.org.id) return false;
  if (q.visibility === 'organization') return true;
  if (q.user_id === p.user.id) return true;
  return q.team !== null && p.team_ids.includes(q.team.id);
}

export type QuestionnaireRole = 'owner' | 'admin' | 'reviewer' | 'team_member' | 'viewer';

export function roleFor(p: Principal, q: QuestionnaireRecord): QuestionnaireRole {
  if (q.user_id === p.user.id) return 'owner';
  if (p.user.role === 'admin') return 'admin';
  if (q.reviewers.some((r) => r.id === p.user.id)) return 'reviewer';
  if (q.team !== null && p.team_ids.includes(q.team.id)) return 'team_member';
  return 'viewer';
}

export function permissionsFor(p: Principal, q: QuestionnaireRecord) {
  const role = roleFor(p, q);
  const writable = !p.read_only;
  return {
    can_access: true,
    can_edit: writable && role !== 'viewer',
    can_approve: writable && (role === 'owner' || role === 'admin' || role === 'reviewer'),
    can_assign: writable && (role === 'owner' || role === 'admin'),
  };
}
