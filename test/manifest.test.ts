// Validates manifest.xml offline (office-addin-manifest's validate needs the internet for XML manifests):
// well-formed XML, the elements Office requires, every URL it names served by a file the build produces.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { OfficeAddinManifest } from 'office-addin-manifest';
import { DIST_DIR } from './build-output';

const manifestPath = path.resolve('manifest.xml');
const xml = readFileSync(manifestPath, 'utf8');
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true });
const doc = parser.parse(xml);
const app = doc.OfficeApp;

function urlsIn(text: string): string[] {
  return [...text.matchAll(/(?:DefaultValue="|>)(https:\/\/[^"<\s]+)/g)].map((m) => m[1]!);
}

describe('manifest.xml', () => {
  it('is well-formed XML', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it('is read by office-addin-manifest as an Excel task-pane add-in', async () => {
    const info = await OfficeAddinManifest.readManifestFile(manifestPath);
    expect(info.officeAppType).toBe('TaskPaneApp');
    expect(info.hosts).toEqual(['Workbook']);
    expect(info.permissions).toBe('ReadWriteDocument');
    expect(info.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    expect(info.defaultSettings?.sourceLocation).toMatch(/\/taskpane\.html$/);
  });

  it('has the elements Office requires, in the schema order', () => {
    const order = [
      'Id',
      'Version',
      'ProviderName',
      'DefaultLocale',
      'DisplayName',
      'Description',
      'IconUrl',
      'HighResolutionIconUrl',
      'SupportUrl',
      'AppDomains',
      'Hosts',
      'Requirements',
      'DefaultSettings',
      'Permissions',
      'VersionOverrides',
    ];
    const present = Object.keys(app).filter((k) => !k.startsWith('@'));
    expect(present).toEqual(order);
    expect(app['@type']).toBe('TaskPaneApp');
  });

  it('requires an ExcelApi set (optional sets are checked at run time)', () => {
    const sets = [app.Requirements.Sets.Set].flat();
    const excel = sets.find((s: Record<string, string>) => s['@Name'] === 'ExcelApi');
    expect(excel).toBeTruthy();
    expect(Number(excel['@MinVersion'])).toBeGreaterThanOrEqual(1.1);
  });

  it('adds a button on the Home tab that shows the task pane', () => {
    const host = app.VersionOverrides.Hosts.Host;
    expect(host['@type']).toBe('Workbook');
    const tab = host.DesktopFormFactor.ExtensionPoint.OfficeTab;
    expect(tab['@id']).toBe('TabHome');
    const control = tab.Group.Control;
    expect(control['@type']).toBe('Button');
    expect(control.Action['@type']).toBe('ShowTaskpane');
  });

  it('refers only to resource ids it defines, and each is unique', () => {
    const defined = [...xml.matchAll(/<bt:(?:Image|Url|String) id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(defined).size).toBe(defined.length);
    const used = [...xml.matchAll(/resid="([^"]+)"/g)].map((m) => m[1]!);
    for (const id of used) expect(defined, `resid ${id}`).toContain(id);
  });

  it('names only URLs that the build produces, on the app domain', () => {
    if (!existsSync(DIST_DIR)) throw new Error(`The build output ${DIST_DIR} is missing: the global setup should have built it`);
    const domains = [app.AppDomains.AppDomain].flat() as string[];
    const urls = urlsIn(xml);
    expect(urls.length).toBeGreaterThan(8);
    for (const url of urls) {
      const u = new URL(url);
      expect(domains, url).toContain(u.origin);
      const file = path.join(DIST_DIR, decodeURIComponent(u.pathname));
      expect(existsSync(file), `${url} -> ${file}`).toBe(true);
    }
  });

  it('uses icons of the sizes Office asks for, as real PNGs', () => {
    for (const size of [16, 32, 64, 80]) {
      const png = readFileSync(path.join('assets', `icon-${size}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(size);
      expect(png.readUInt32BE(20)).toBe(size);
    }
  });

  it("loads office.js from Microsoft's CDN in the task pane page", () => {
    const html = readFileSync(path.join(DIST_DIR, 'taskpane.html'), 'utf8');
    expect(html).toContain('https://appsforoffice.microsoft.com/lib/1/hosted/office.js');
  });
});
