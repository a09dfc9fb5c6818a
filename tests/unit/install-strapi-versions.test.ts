import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appMaker, compareVersions, newestInstallable, peerFloor } from '../install/strapi-versions';

/** How the install check picks its Strapi versions (tests/install/strapi-versions.ts), without the registry. */

const PACKAGE = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('the Strapi versions of the install check', () => {
  it('orders versions by number, not by text', () => {
    expect(['5.9.0', '5.54.0', '5.33.3', '5.100.0', '5.33.10'].sort(compareVersions)).toEqual([
      '5.9.0',
      '5.33.3',
      '5.33.10',
      '5.54.0',
      '5.100.0',
    ]);
  });

  it('reads the floor of a caret or bounded 5.x range, and refuses a range whose floor it cannot tell', () => {
    expect(peerFloor('^5.33.3')).toBe('5.33.3');
    expect(peerFloor('>=5.33.3 <6')).toBe('5.33.3');
    expect(peerFloor('>=5.33.3 <6.0.0')).toBe('5.33.3');
    for (const range of ['^5.0.0 || ^6.0.0', '>=5.33.3', '5.x', '*', '^4.25.0']) expect(() => peerFloor(range)).toThrow(range);
  });

  it('skips a release whose pinned packages the registry lacks, and says which', () => {
    const published = ['5.54.0', '5.55.0', '5.55.1', '5.56.0-beta.1', '4.26.2', '5.33.3'];
    const registry = new Set([
      '@strapi/admin@5.54.0',
      '@strapi/utils@5.54.0',
      '@strapi/utils@5.55.0',
      '@strapi/admin@5.33.3',
      '@strapi/utils@5.33.3',
    ]);
    const pinnedOf = (version: string) => [`@strapi/admin@${version}`, `@strapi/utils@${version}`];
    expect(newestInstallable(published, pinnedOf, (spec) => registry.has(spec))).toEqual({
      version: '5.54.0',
      skipped: [
        { version: '5.55.1', missing: ['@strapi/admin@5.55.1', '@strapi/utils@5.55.1'] },
        { version: '5.55.0', missing: ['@strapi/admin@5.55.0'] },
      ],
    });
    expect(newestInstallable(published, pinnedOf, () => true).version).toBe('5.55.1'); // never a prerelease, never 4.x
    expect(() => newestInstallable(['5.1.0'], pinnedOf, () => false)).toThrow('no Strapi 5 version');
  });

  it("makes the app with create-strapi of the app's version, else with the newest one before it, never a newer one", () => {
    const published = { 'create-strapi': ['5.9.0', '5.40.0', '5.54.0'], 'create-strapi-app': ['5.26.0', '5.40.0', '5.55.0', '4.25.0'] };
    expect(appMaker('5.54.0', published)).toEqual({ spec: 'create-strapi@5.54.0', pinned: false });
    expect(appMaker('5.55.0', published)).toEqual({ spec: 'create-strapi-app@5.55.0', pinned: false });
    expect(appMaker('5.33.3', published)).toEqual({ spec: 'create-strapi-app@5.26.0', pinned: true });
    expect(appMaker('5.41.1', published)).toEqual({ spec: 'create-strapi@5.40.0', pinned: true });
    expect(() => appMaker('5.1.0', published)).toThrow('no create-strapi release up to 5.1.0');
  });

  it("claims the Strapi range it tests: @strapi/utils and Strapi's admin packages are peers, never dependencies", () => {
    const floor = peerFloor(PACKAGE.peerDependencies['@strapi/strapi']);
    expect(PACKAGE.peerDependencies['@strapi/utils']).toBe(PACKAGE.peerDependencies['@strapi/strapi']);
    expect(Object.keys(PACKAGE.dependencies).filter((name) => name.startsWith('@strapi/'))).toEqual([]);
    // Development runs on a pinned Strapi inside the range.
    for (const name of ['@strapi/strapi', '@strapi/utils']) {
      expect(compareVersions(PACKAGE.devDependencies[name], floor)).toBeGreaterThanOrEqual(0);
      expect(PACKAGE.devDependencies[name].split('.')[0]).toBe('5');
    }
    // Strapi brings these; the plugin takes Strapi's copy instead of having npm add one for it.
    for (const name of ['@strapi/utils', '@strapi/design-system', '@strapi/icons', 'react-intl'])
      expect(`${name} ${PACKAGE.peerDependenciesMeta?.[name]?.optional}`).toBe(`${name} true`);
  });
});
