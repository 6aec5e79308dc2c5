import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument } from '../../../src/service/knowledge';
import { documentTypeOf, namesACertificate, reportMarkersIn } from '../../../src/service/knowledge/extract/document-type';
import { FIXTURES, fixture } from './helpers';

async function typeOf(text: string, filename: string): Promise<string> {
  return (await extractDocument(strToU8(text), filename)).document_type;
}

const OVERVIEW_MENTIONING_SOC2 = [
  '# Northwind Learning Security Overview',
  '',
  '## Certifications and audits',
  '',
  'Northwind Learning holds a SOC 2 Type II report covering security, availability and confidentiality, issued annually',
  'by an independent auditor. Our hosting provider holds ISO 27001 and SOC 2 Type II certifications. Customers can',
  'request the latest SOC 2 report under a non-disclosure agreement.',
  '',
  '## Encryption',
  '',
  'Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or higher.',
].join('\n');

const SOC2_REPORT_OPENING = [
  'Independent Service Auditor’s Report',
  '',
  'To the Management of Acme Corp: Scope. We have examined Acme’s accompanying assertion titled “Management’s Assertion”',
  'that the controls within the Acme Platform were effective throughout the period January 1, 2024 to December 31, 2024,',
  'based on the trust services criteria relevant to Security. Our examination was conducted in accordance with attestation',
  'standards established by the AICPA. In our opinion, management’s assertion is fairly stated, in all material respects.',
].join('\n');

const ISO_CERTIFICATE = [
  'CERTIFICATE OF REGISTRATION',
  '',
  'This is to certify that the information security management system of Acme Corp has been assessed and found to',
  'conform to ISO/IEC 27001:2022. Certificate number: IS 123456. Date of issue: 1 March 2024. Valid until: 28 February 2027.',
  'Issued by an accredited certification body.',
].join('\n');

describe('document_type of prose files', () => {
  it('keeps an overview that merely mentions SOC 2 and ISO 27001 as documentation', async () => {
    expect(await typeOf(OVERVIEW_MENTIONING_SOC2, 'northwind-security-overview.md')).toBe('documentation');
    expect(await typeOf(OVERVIEW_MENTIONING_SOC2, 'overview.txt')).toBe('documentation');
    expect(reportMarkersIn(OVERVIEW_MENTIONING_SOC2).length).toBeLessThanOrEqual(1);
  });

  it('recognises an auditor’s report or a certificate by its opening, whatever the file is called', async () => {
    expect(await typeOf(SOC2_REPORT_OPENING, 'acme-2024.txt')).toBe('security_certificate');
    expect(await typeOf(ISO_CERTIFICATE, 'scan-0042.txt')).toBe('security_certificate');
    expect(await typeOf(`<html><head><title>Acme</title></head><body><p>${ISO_CERTIFICATE}</p></body></html>`, 'doc.html')).toBe('security_certificate');
  });

  it('recognises a certificate or report by its file name or title', async () => {
    const body = 'Scope: the Acme platform. Contact security@acme.example for questions.';
    for (const name of [
      'Acme SOC 2 Type II.pdf.txt',
      'acme_soc3.txt',
      'ISO 27001 Certificate.txt',
      'TX-RAMP Level 2 Certification.txt',
      'FedRAMP Moderate Authorization Letter.txt',
      '2024 Audit Report.txt',
      'PCI DSS Attestation of Compliance.txt',
      'bridge-letter-q3.txt',
    ]) {
      expect(await typeOf(body, name), name).toBe('security_certificate');
    }
    const titled = await extractDocument(strToU8(`---\ntitle: Acme ISO 27001 Certificate\n---\n${body}`), 'cert.md');
    expect(titled.document_type).toBe('security_certificate');
  });

  it('does not let a name that is about certificates or audits make a certificate', async () => {
    for (const name of [
      'SOC 2 Compliance Policy.md',
      'certificate-management.md',
      'ssl certificates.md',
      'Audit Logging Policy.md',
      'soc2-readiness-plan.md',
      'ISO 27001 Overview.md',
      'compliance-audit.md',
      'Security Overview.md',
    ]) {
      expect(namesACertificate(name.replace(/\.md$/, '')), name).toBe(false);
      expect(await typeOf(OVERVIEW_MENTIONING_SOC2, name), name).toBe('documentation');
    }
  });

  it('needs several different report formulas, not one repeated', () => {
    const repeated = 'Our SOC 2 report is available. '.repeat(50);
    expect(reportMarkersIn(repeated)).toEqual(['report title']);
    expect(documentTypeOf({ filename: 'trust.txt', pages: [{ page_number: 1, text: repeated }] })).toBe('documentation');
  });

  it('looks at the opening pages only: a report appendix at the end of a long policy does not count', () => {
    const policy = 'Access to production requires multi-factor authentication and is reviewed quarterly. '.repeat(20);
    const pages = [...Array.from({ length: 6 }, (_, i) => ({ page_number: i + 1, text: policy })), { page_number: 7, text: SOC2_REPORT_OPENING }];
    expect(documentTypeOf({ filename: 'access-policy.pdf', pages })).toBe('documentation');
    expect(
      documentTypeOf({
        filename: 'scan.pdf',
        pages: [
          { page_number: 1, text: '' },
          { page_number: 2, text: SOC2_REPORT_OPENING },
        ],
      }),
    ).toBe('security_certificate');
  });

  it('still types answer spreadsheets as qna', async () => {
    expect(await typeOf('Question,Answer\nDo you hold a SOC 2 report?,Yes\n', 'soc2-answers.csv')).toBe('qna');
  });
});

/** What each real knowledge-base file is; every file in kb/instructure must be listed here. */
const INSTRUCTURE_TYPES: Record<string, string> = {
  '2024_Instructure_PCI_DSS_Summary.txt': 'security_certificate', // a PCI DSS Attestation of Compliance (AOC)
  'AWS SOC 3.pdf': 'security_certificate',
  'Canvas Catalog Architecture.txt': 'documentation',
  'Canvas Catalog PCI Responsibility Matrix.txt': 'documentation',
  'Canvas Credentials Architecture.txt': 'documentation',
  'Canvas Credentials TX-RAMP Level 2 Certification.txt': 'security_certificate',
  'Canvas LMS Architecture.pdf': 'documentation',
  'Canvas LMS SOC 3.pdf': 'security_certificate',
  'Canvas LMS TX-RAMP Level 2 Certification.txt': 'security_certificate',
  'Canvas Studio Architecture.txt': 'documentation',
  'Impact Architecture.txt': 'documentation',
  'Impact TX-RAMP Level 2 Certification.txt': 'security_certificate',
  'Instructure Business Continuity & Disaster Recovery.pdf': 'documentation',
  'Instructure ESG Report FY2023.pdf': 'documentation',
  'Instructure Quality Assurance Program.pdf': 'documentation',
  'Instructure Security Overview.pdf': 'documentation',
  'Intelligent Insights Architecture Overview.txt': 'documentation',
  'LearnPlatform Architecture Overview.txt': 'documentation',
  'Mastery Connect Architecture.txt': 'documentation',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function requireFixtureFolder(relative: string): string {
  const dir = path.join(FIXTURES, relative);
  if (!existsSync(dir)) {
    throw new Error(`fixture folder missing: ${dir}. These tests need the shared real-world fixtures in ../shared/fixtures (see its README).`);
  }
  return dir;
}

describe('document_type of the real knowledge base', () => {
  it('types every Instructure file as what it is', async () => {
    const dir = requireFixtureFolder('kb/instructure');
    expect(readdirSync(dir).sort()).toEqual(Object.keys(INSTRUCTURE_TYPES).sort());
    const actual: Record<string, string> = {};
    for (const name of Object.keys(INSTRUCTURE_TYPES)) {
      actual[name] = (await extractDocument(fixture(`kb/instructure/${name}`), name)).document_type;
    }
    expect(actual).toEqual(INSTRUCTURE_TYPES);
  }, 60_000);

  it('types every JupiterOne and comply policy, procedure and narrative as documentation', async () => {
    const dir = requireFixtureFolder('kb/policies');
    const files = filesUnder(dir).filter((f) => /\.md$/.test(f));
    expect(files.length).toBeGreaterThan(150);
    const certificates: string[] = [];
    for (const file of files) {
      const doc = await extractDocument(new Uint8Array(readFileSync(file)), path.basename(file));
      if (doc.document_type !== 'documentation') certificates.push(`${path.relative(dir, file)}: ${doc.document_type}`);
    }
    expect(certificates).toEqual([]);
  }, 60_000);

  it('types the demo knowledge base (an overview mentioning SOC 2) as documentation', async () => {
    const dir = path.resolve('scripts/demo/kb');
    const files = readdirSync(dir).filter((f) => /\.md$/.test(f));
    expect(files).toContain('northwind-security-overview.md');
    for (const name of files) {
      const doc = await extractDocument(new Uint8Array(readFileSync(path.join(dir, name))), name);
      expect(doc.document_type, name).toBe('documentation');
    }
  });
});
