// Quire is AGPL-3.0-or-later (MuPDF is AGPL). Every installed dependency must carry a licence that
// can be combined with it; development tools are not distributed, but are held to the same list so
// that building and testing Quire needs only open-source software.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** SPDX identifiers whose terms allow the work to be distributed under AGPL-3.0-or-later. */
const COMPATIBLE = new Set([
  '0BSD',
  'AGPL-3.0-only',
  'AGPL-3.0-or-later',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC-BY-4.0',
  'CC0-1.0',
  'GPL-2.0-or-later',
  'GPL-3.0-only',
  'GPL-3.0-or-later',
  'ISC',
  // LGPL code may always be used under the GPL (LGPL-2.1 §3), which AGPL-3.0 §13 combines with.
  'LGPL-2.1-only',
  'LGPL-2.1-or-later',
  'LGPL-3.0-only',
  'LGPL-3.0-or-later',
  'MIT',
  'MIT-0',
  'MPL-2.0',
  // Fonts (the typed signatures' handwriting): the OFL lets them be bundled with any software, the
  // fonts themselves staying under it.
  'OFL-1.1',
  'Python-2.0',
  'Unlicense',
  'WTFPL',
  'Zlib',
]);

/** Deprecated SPDX forms that packages still use, read as the identifier they stand for. */
const DEPRECATED: Record<string, string> = {
  'AGPL-3.0': 'AGPL-3.0-only',
  'GPL-2.0+': 'GPL-2.0-or-later',
  'GPL-3.0': 'GPL-3.0-only',
  'GPL-3.0+': 'GPL-3.0-or-later',
  'LGPL-2.1': 'LGPL-2.1-only',
  'LGPL-2.1+': 'LGPL-2.1-or-later',
  'LGPL-3.0': 'LGPL-3.0-only',
  'LGPL-3.0+': 'LGPL-3.0-or-later',
};

/**
 * Whether an SPDX licence expression allows use in Quire: OR needs one compatible side, AND needs
 * both, and `WITH` exceptions only add permissions, so the licence before it decides. Anything
 * that is not an SPDX expression ("SEE LICENSE IN …", "UNLICENSED", a missing field) is not.
 */
function compatible(expression: string): boolean {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const fail = () => {
    throw new Error(`not an SPDX expression: ${expression}`);
  };
  // or-expr := and-expr ("OR" and-expr)*; and-expr := term ("AND" term)*; term := id ["WITH" id] | "(" or-expr ")"
  const orExpr = (): boolean => {
    let ok = andExpr();
    while (tokens[at] === 'OR') {
      at++;
      ok = andExpr() || ok;
    }
    return ok;
  };
  const andExpr = (): boolean => {
    let ok = term();
    while (tokens[at] === 'AND') {
      at++;
      ok = term() && ok;
    }
    return ok;
  };
  const term = (): boolean => {
    const token = tokens[at++];
    if (token === '(') {
      const ok = orExpr();
      if (tokens[at++] !== ')') fail();
      return ok;
    }
    if (token === undefined || token === ')' || token === 'AND' || token === 'OR' || token === 'WITH') return fail();
    if (tokens[at] === 'WITH') at += 2;
    return COMPATIBLE.has(DEPRECATED[token] ?? token);
  };
  try {
    const ok = orExpr();
    return at === tokens.length && ok;
  } catch {
    return false;
  }
}

interface PackageJson {
  name?: string;
  version?: string;
  license?: string | { type?: string };
  licenses?: { type?: string }[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readPackage = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;

/** The licence expression a package declares, including the older `licenses` array (joined with OR). */
function licenceOf(pkg: PackageJson): string {
  if (typeof pkg.license === 'string') return pkg.license;
  if (pkg.license?.type) return pkg.license.type;
  const types = (pkg.licenses ?? []).map((l) => l.type).filter((t): t is string => !!t);
  return types.length ? `(${types.join(' OR ')})` : '(none)';
}

/** Node's lookup: the nearest node_modules/<name> from `dir` upwards. */
function resolvePackage(name: string, dir: string): string | null {
  for (let at = dir; ; at = path.dirname(at)) {
    const file = path.join(at, 'node_modules', name, 'package.json');
    if (fs.existsSync(file)) return fs.realpathSync(file);
    if (path.dirname(at) === at) return null;
  }
}

const workspaceDirs = () => {
  const rootPackage = readPackage(path.join(repoRoot, 'package.json')) as PackageJson & { workspaces: string[] };
  const dirs = rootPackage.workspaces.flatMap((pattern) => {
    const parent = path.join(repoRoot, pattern.replace(/\/\*$/, ''));
    return fs.readdirSync(parent).map((d) => path.join(parent, d));
  });
  return [repoRoot, ...dirs.filter((d) => fs.existsSync(path.join(d, 'package.json')))];
};

interface Installed {
  name: string;
  version: string;
  licence: string;
}

/**
 * Every installed package reachable from the workspaces' `field` (dependencies or devDependencies),
 * following each package's own dependencies. Optional and peer dependencies count where installed
 * (sharp's binaries for other platforms are not); a missing required one is reported.
 */
function installedTree(field: 'dependencies' | 'devDependencies'): { packages: Installed[]; missing: string[] } {
  const seen = new Map<string, Installed>();
  const missing: string[] = [];
  const visit = (packageFile: string, fields: (keyof PackageJson)[]) => {
    const pkg = readPackage(packageFile);
    for (const f of fields) {
      for (const name of Object.keys((pkg[f] as Record<string, string> | undefined) ?? {})) {
        const file = resolvePackage(name, path.dirname(packageFile));
        if (!file) {
          if (f === 'dependencies' || f === 'devDependencies') missing.push(`${name} (needed by ${pkg.name})`);
          continue;
        }
        if (seen.has(file)) continue;
        const dep = readPackage(file);
        seen.set(file, { name: dep.name ?? name, version: dep.version ?? '?', licence: licenceOf(dep) });
        visit(file, ['dependencies', 'optionalDependencies', 'peerDependencies']);
      }
    }
  };
  for (const dir of workspaceDirs()) visit(path.join(dir, 'package.json'), [field]);
  return { packages: [...seen.values()], missing };
}

const incompatible = (packages: Installed[]) =>
  packages.filter((p) => !compatible(p.licence)).map((p) => `${p.name}@${p.version}: ${p.licence}`);

describe('licences', () => {
  it('reads SPDX expressions: OR needs one compatible side, AND needs all', () => {
    expect(compatible('MIT')).toBe(true);
    expect(compatible('(MIT OR Apache-2.0)')).toBe(true);
    expect(compatible('(MIT OR GPL-2.0-only)')).toBe(true);
    expect(compatible('(MIT AND Zlib)')).toBe(true);
    expect(compatible('LGPL-3.0-or-later')).toBe(true);
    expect(compatible('GPL-2.0-or-later WITH Classpath-exception-2.0')).toBe(true);
    expect(compatible('LGPL-2.1+')).toBe(true);
    expect(compatible('GPL-2.0-only')).toBe(false);
    expect(compatible('MIT AND GPL-2.0-only')).toBe(false);
    expect(compatible('(MIT AND (Apache-2.0 OR SSPL-1.0)) AND BUSL-1.1')).toBe(false);
    expect(compatible('SSPL-1.0 OR BUSL-1.1')).toBe(false);
    expect(compatible('SEE LICENSE IN LICENSE.txt')).toBe(false);
    expect(compatible('UNLICENSED')).toBe(false);
    expect(compatible('(none)')).toBe(false);
    expect(compatible('(MIT')).toBe(false);
    expect(compatible('MIT OR')).toBe(false);
  });

  it('every production dependency has a licence compatible with AGPL-3.0-or-later', () => {
    const { packages, missing } = installedTree('dependencies');
    expect(missing).toEqual([]);
    // The engines the server runs in-process or ships: a walk that misses them walks nothing.
    const names = packages.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['fastify', 'mupdf', 'sharp', 'react', 'zod']));
    // sharp's libvips binaries are LGPL-3.0.
    expect(packages.find((p) => p.name.startsWith('@img/sharp-libvips-'))?.licence).toMatch(/^LGPL-3\.0/);
    expect(incompatible(packages)).toEqual([]);
  });

  it('every development dependency is open source under the same list', () => {
    const { packages, missing } = installedTree('devDependencies');
    expect(missing).toEqual([]);
    expect(packages.map((p) => p.name)).toEqual(expect.arrayContaining(['typescript', 'vitest', '@biomejs/biome', 'vite']));
    expect(incompatible(packages)).toEqual([]);
  });

  it('the repository is AGPL-3.0-or-later: the LICENSE text and every package.json say so', () => {
    const licence = fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8');
    const words = (text: string) => text.replace(/\s+/g, ' ').trim();
    expect(words(licence)).toMatch(/^GNU AFFERO GENERAL PUBLIC LICENSE Version 3, 19 November 2007 /);
    // Its section 13, what makes it the Affero licence: network users are offered the source.
    expect(words(licence)).toContain(
      '13. Remote Network Interaction; Use with the GNU General Public License. Notwithstanding any other provision of this License, if you modify the Program, your modified version must prominently offer all users interacting with it remotely',
    );
    expect(words(licence)).toContain('END OF TERMS AND CONDITIONS');
    // MuPDF ships the same licence; the two texts must be the same words.
    expect(words(licence)).toBe(words(fs.readFileSync(path.join(repoRoot, 'node_modules/mupdf/LICENSE'), 'utf8')));
    for (const dir of workspaceDirs()) {
      const pkg = readPackage(path.join(dir, 'package.json'));
      expect({ package: pkg.name, license: pkg.license }).toEqual({ package: pkg.name, license: 'AGPL-3.0-or-later' });
    }
  });
});
