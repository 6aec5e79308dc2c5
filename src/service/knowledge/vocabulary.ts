/**
 * The security vocabulary, as data: one place to add an acronym, a spelling or a related term.
 *
 * - SYNONYMS: an acronym and the phrases that mean exactly it. Indexing and querying both add the
 *   acronym wherever a phrase occurs (text.ts), so "MFA" finds "two-factor authentication" and the other
 *   way round. Phrases match on word boundaries, case-insensitively, hyphens and spaces alike.
 * - RELATED: words a person uses for the same subject without being synonyms ("algorithm" for AES,
 *   "cipher" for encryption). They widen what counts as speaking to a chat follow-up's own words,
 *   never what a questionnaire answer must state.
 * - PARAPHRASES: the words a questionnaire and a document use for one practice ("retrieve their data"
 *   and "export", "destroy the old key" and "key destruction"). Retrieval searches with them and counts
 *   a passage holding a paraphrase as holding the question's word, for a little less; what an answer
 *   must state is unchanged.
 * Numbered standards and algorithms (SOC 2 / SOC2, AES-256, ISO 27001) are joined into single tokens in text.ts.
 */
export const SYNONYMS: Record<string, string[]> = {
  mfa: [
    'multi factor authentication',
    'multifactor authentication',
    'two factor authentication',
    '2factor authentication',
    'multi factor',
    'two factor',
    '2fa',
    'two step verification',
    'two step authentication',
  ],
  sso: ['single sign on', 'single signon'],
  dr: ['disaster recovery'],
  bcp: ['business continuity plan', 'business continuity planning', 'business continuity'],
  siem: ['security information and event management', 'security information event management', 'log monitoring', 'security event monitoring'],
  dlp: ['data loss prevention', 'data leakage prevention'],
  pii: ['personally identifiable information', 'personal data', 'personal information'],
  ids: ['intrusion detection system', 'intrusion detection'],
  ips: ['intrusion prevention system', 'intrusion prevention'],
  waf: ['web application firewall'],
  ddos: ['distributed denial of service'],
  vpn: ['virtual private network'],
  rbac: ['role based access control', 'role based access'],
  iam: ['identity and access management'],
  sdlc: ['software development life cycle', 'software development lifecycle', 'system development life cycle'],
  rto: ['recovery time objective'],
  rpo: ['recovery point objective'],
  bia: ['business impact analysis'],
  ferpa: ['family educational rights and privacy act'],
  gdpr: ['general data protection regulation'],
  hipaa: ['health insurance portability and accountability act'],
  saml: ['security assertion markup language'],
  ldap: ['lightweight directory access protocol'],
  ciso: ['chief information security officer'],
  edr: ['endpoint detection and response'],
  soar: ['security orchestration automation and response'],
  kms: ['key management service', 'key management system'],
  hsm: ['hardware security module'],
  pentest: ['penetration test', 'penetration testing', 'penetration tests', 'pen test', 'pen testing', 'pentesting'],
  vpc: ['virtual private cloud'],
  tls: ['transport layer security'],
  ssl: ['secure sockets layer'],
  ir: ['incident response'],
  av: ['anti virus', 'antivirus', 'anti malware', 'antimalware'],
  byod: ['bring your own device'],
  mdm: ['mobile device management'],
};

/** Groups of words about one subject (unstemmed; text.ts stems them as it stems everything). */
export const RELATED: string[][] = [
  [
    'algorithm',
    'algorithms',
    'cipher',
    'ciphers',
    'aes',
    'aes128',
    'aes192',
    'aes256',
    'rsa',
    'rsa2048',
    'rsa4096',
    'encryption',
    'encrypted',
    'sha256',
    'tls',
  ],
  ['mfa', 'sso', 'saml', 'authentication', 'login', 'sign'],
  ['bcp', 'dr', 'rto', 'rpo', 'continuity', 'recovery', 'failover', 'resilience'],
  ['pentest', 'vulnerability', 'scan', 'scanning', 'bounty'],
  ['siem', 'log', 'logs', 'logging', 'monitoring', 'alerting'],
  ['soc2', 'soc3', 'soc1', 'audit', 'auditor', 'attestation', 'report'],
  ['retention', 'retained', 'kept', 'deleted', 'deletion', 'purged'],
  ['region', 'regions', 'location', 'located', 'country', 'hosted', 'datacenter'],
];

/**
 * Words (unstemmed; retrieval stems them) that stand for one another between a question and a document.
 * Each group is one practice seen from both sides, not a topic: "vendor" and "supplier" are paraphrases,
 * "vendor" and "contract" are not.
 */
export const PARAPHRASES: string[][] = [
  ['retrieve', 'retrieval', 'export', 'exported', 'extract', 'extraction', 'download', 'portability', 'portable'],
  [
    'destroy',
    'destroyed',
    'destruction',
    'dispose',
    'disposal',
    'disposed',
    'sanitize',
    'sanitization',
    'wipe',
    'erase',
    'erasure',
    'decommission',
    'decommissioning',
  ],
  ['cryptographic', 'cryptography', 'crypto', 'encryption', 'encrypt', 'encrypted'],
  ['supplier', 'suppliers', 'vendor', 'vendors', 'subprocessor', 'subprocessors', 'subservice'],
  ['malware', 'antimalware', 'virus', 'viruses', 'antivirus', 'av'],
  ['hardening', 'hardened', 'harden', 'baseline', 'baselines'],
  ['notify', 'notified', 'notification', 'notifications', 'inform', 'informed'],
  ['privileged', 'administrative', 'admin', 'administrator', 'administrators'],
  ['customer', 'customers', 'client', 'clients', 'tenant', 'tenants', 'institution', 'institutions', 'csc', 'cscs'],
  ['insurance', 'insured', 'insurer'],
];
