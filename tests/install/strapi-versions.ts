import { execFileSync } from 'node:child_process';

/**
 * Which Strapi 5 versions the install check runs on: the floor of the plugin's peer range, and the
 * newest 5.x whose packages can all be installed from the registry in use. A registry (a mirror, a
 * release being published) can hold `@strapi/strapi@X` before the exact-pinned `@strapi/admin@X`
 * and friends it depends on; installing it then fails with ETARGET, so such a version is skipped
 * and the reason printed.
 */

/** Packages create-strapi's template pins to the app's Strapi version, beside `@strapi/strapi` itself. */
export const TEMPLATE_PACKAGES = ['@strapi/plugin-users-permissions', '@strapi/plugin-cloud', '@strapi/database'];

/** `x.y.z` only (no prerelease, no build), compared numerically. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

const STABLE = /^\d+\.\d+\.\d+$/;

/** `@scope/name` of `@scope/name@1.2.3`. */
const nameOf = (spec: string) => spec.slice(0, spec.lastIndexOf('@'));

/** The lowest version a peer range of the form `^5.X.Y` or `>=5.X.Y <6` admits; throws on any other form. */
export function peerFloor(range: string): string {
  const match = /^\^(5\.\d+\.\d+)$/.exec(range.trim()) ?? /^>=\s*(5\.\d+\.\d+)\s+<\s*6(?:\.0\.0)?$/.exec(range.trim());
  if (!match)
    throw new Error(`@strapi/strapi peer range "${range}" is not "^5.X.Y" or ">=5.X.Y <6": the install check cannot tell its floor`);
  return match[1];
}

export interface Skipped {
  version: string;
  missing: string[];
}

/**
 * The newest stable 5.x in `published` whose pinned packages all exist: `pinnedOf(v)` lists the
 * `name@version` specs installing Strapi `v` needs, `exists(spec)` says whether the registry has one.
 * Returns it with the newer versions skipped and what each one lacked.
 */
export function newestInstallable(
  published: string[],
  pinnedOf: (version: string) => string[],
  exists: (spec: string) => boolean
): { version: string; skipped: Skipped[] } {
  const candidates = published.filter((v) => STABLE.test(v) && v.startsWith('5.')).sort((a, b) => compareVersions(b, a));
  const skipped: Skipped[] = [];
  for (const version of candidates) {
    const missing = pinnedOf(version).filter((spec) => !exists(spec));
    if (missing.length === 0) return { version, skipped };
    skipped.push({ version, missing });
  }
  throw new Error(`no Strapi 5 version has all its packages on the registry: ${JSON.stringify(skipped)}`);
}

/** `npm view <args> --json`, parsed; null when npm answers E404 (no such package or version). */
function npmView(args: string[], env: NodeJS.ProcessEnv): unknown {
  try {
    const out = execFileSync('npm', ['view', ...args, '--json'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.trim() ? JSON.parse(out) : null;
  } catch (error) {
    const stdout = String((error as { stdout?: unknown }).stdout ?? '');
    if (/E404|ETARGET|No match found/.test(stdout + String((error as { stderr?: unknown }).stderr ?? ''))) return null;
    throw error;
  }
}

const asList = (value: unknown): string[] => (Array.isArray(value) ? value : value == null ? [] : [String(value)]);

/** What the registry says, through npm: published versions per package (each asked once). */
export function registry(env: NodeJS.ProcessEnv = process.env) {
  const versions = new Map<string, Set<string>>();
  const pins = new Map<string, string[]>();
  const versionsOf = (name: string) => {
    if (!versions.has(name)) versions.set(name, new Set(asList(npmView([name, 'versions'], env))));
    return versions.get(name)!;
  };
  return {
    versionsOf,
    exists: (spec: string) => versionsOf(nameOf(spec)).has(spec.slice(spec.lastIndexOf('@') + 1)),
    /** The exact-pinned `@strapi/*` dependencies of `@strapi/strapi@version`, and the template's packages, as `name@version`. */
    pinnedOf(version: string) {
      if (pins.has(version)) return pins.get(version)!;
      const dependencies = (npmView([`@strapi/strapi@${version}`, 'dependencies'], env) ?? {}) as Record<string, string>;
      const strapiOwn = Object.entries(dependencies)
        .filter(([name, range]) => name.startsWith('@strapi/') && STABLE.test(range))
        .map(([name, range]) => `${name}@${range}`);
      pins.set(version, [...new Set([...strapiOwn, ...TEMPLATE_PACKAGES.map((name) => `${name}@${version}`)])]);
      return pins.get(version)!;
    },
  };
}

/**
 * The app's maker: create-strapi (or create-strapi-app, its older name, which has more releases on
 * some registries) of `version` itself when published; otherwise the newest one before it, whose
 * app is then upgraded to `version` the way `@strapi/upgrade` does a minor upgrade, by pinning the
 * @strapi/* packages. Never a newer one: a newer template uses what the older Strapi lacks (5.54's
 * `config/database.ts` imports `isDatabaseClientKind`, which `@strapi/database` 5.33.3 does not export).
 */
export function appMaker(version: string, published: Record<string, Iterable<string>>): { spec: string; pinned: boolean } {
  const makers = Object.entries(published).flatMap(([name, versions]) =>
    [...versions].filter((v) => STABLE.test(v) && v.startsWith('5.')).map((v) => ({ name, version: v }))
  );
  const exact = makers.find((maker) => maker.version === version);
  if (exact) return { spec: `${exact.name}@${version}`, pinned: false };
  const older = makers.filter((maker) => compareVersions(maker.version, version) < 0).sort((a, b) => compareVersions(b.version, a.version));
  if (!older.length) throw new Error(`no create-strapi release up to ${version} on the registry`);
  return { spec: `${older[0].name}@${older[0].version}`, pinned: true };
}

export interface VersionUnderTest {
  version: string;
  role: string;
  /** `create-strapi@x` or `create-strapi-app@x`: see appMaker. */
  maker: string;
  /** Whether the app is made by an older maker and pinned to `version`. */
  pinned: boolean;
  /** The `@strapi/*` packages installing this Strapi involves, all pinned to `version`. */
  strapiPackages: string[];
}

/** The floor of the peer range and the newest installable 5.x (once if they are the same), with the reasons printed. */
export function strapiVersionsUnderTest(peerRange: string, env: NodeJS.ProcessEnv = process.env): VersionUnderTest[] {
  const npm = registry(env);
  const floor = peerFloor(peerRange);
  const floorPins = npm.pinnedOf(floor);
  const floorMissing = floorPins.filter((spec) => !npm.exists(spec));
  if (floorMissing.length)
    throw new Error(`Strapi ${floor}, the floor of ${peerRange}, cannot be installed: the registry lacks ${floorMissing.join(', ')}`);
  const newest = newestInstallable([...npm.versionsOf('@strapi/strapi')], npm.pinnedOf, npm.exists);
  for (const { version, missing } of newest.skipped) {
    const named = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
    console.log(`[strapi versions] skipping Strapi ${version}: the registry lacks packages it pins (${named}), so npm cannot install it`);
  }
  const makers = { 'create-strapi': npm.versionsOf('create-strapi'), 'create-strapi-app': npm.versionsOf('create-strapi-app') };
  const describe = (version: string, role: string): VersionUnderTest => {
    const { spec, pinned } = appMaker(version, makers);
    return { version, role, maker: spec, pinned, strapiPackages: npm.pinnedOf(version).map(nameOf) };
  };
  const chosen = [describe(floor, `the floor of the peer range ${peerRange}`)];
  if (newest.version !== floor) chosen.push(describe(newest.version, 'the newest Strapi 5 with all its packages on the registry'));
  for (const { version, role, maker, pinned } of chosen) {
    console.log(
      `[strapi versions] ${version}: ${role}; app made by ${maker}${pinned ? `, its @strapi/* packages pinned to ${version}` : ''}`
    );
  }
  return chosen;
}
