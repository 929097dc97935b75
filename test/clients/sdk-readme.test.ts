import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SDK = path.join(ROOT, 'clients/typescript');

/** Names of the public members (methods, accessors, properties) of the exported class `name` in `file`. */
function publicMembers(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(SDK, 'src', file), 'utf8'), ts.ScriptTarget.Latest, true);
  const cls = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name);
  assert.ok(cls, `class ${name} in ${file}`);
  const hidden = (m: ts.ClassElement): boolean => (ts.canHaveModifiers(m) ? ts.getModifiers(m) ?? [] : [])
    .some((k) => k.kind === ts.SyntaxKind.PrivateKeyword || k.kind === ts.SyntaxKind.ProtectedKeyword);
  return cls.members
    .filter((m) => (ts.isMethodDeclaration(m) || ts.isGetAccessor(m) || ts.isPropertyDeclaration(m)) && !hidden(m))
    .flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
}

/** Every word that appears inside a backtick code span of the README or its code blocks. */
function documentedNames(): Set<string> {
  const readme = readFileSync(path.join(SDK, 'README.md'), 'utf8');
  const code = [...readme.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)].map((m) => m[0]).join('\n');
  return new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

// mergeParticipant was in the SDK, and in no line of its README.
describe('the SDK README names every public method and property', () => {
  const names = documentedNames();
  for (const [file, cls] of [['http.ts', 'ParleyClient'], ['stream.ts', 'StreamSession'], ['session-events.ts', 'SessionEventStream']] as const) {
    test(`${cls}`, () => {
      const members = publicMembers(file, cls);
      assert.ok(members.length > 0);
      assert.deepEqual(members.filter((m) => !names.has(m)), [], `members of ${cls} the README does not name`);
    });
  }
});

// trial11 F8: `npx tsc -p .` and `npm run build` put the SDK in different places, and the READMEs named only one.
describe('the READMEs say where each build puts the SDK', () => {
  const json = <T>(file: string): T => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;
  test('the package (`npm run build:client`) and the project build (`npx tsc -p .`)', () => {
    const scripts = json<{ scripts: Record<string, string> }>('package.json').scripts;
    assert.equal(scripts['build:client'], 'tsc -p clients/typescript');
    assert.match(scripts.build ?? '', /&& tsc -p clients\/typescript$/);
    const sdk = json<{ compilerOptions: { outDir: string } }>('clients/typescript/tsconfig.json').compilerOptions;
    const main = json<{ main: string }>('clients/typescript/package.json').main;
    assert.equal(path.posix.dirname(main), sdk.outDir);
    const root = json<{ compilerOptions: { outDir: string; rootDir: string } }>('tsconfig.json').compilerOptions;
    const packageDir = `clients/typescript/${sdk.outDir}/`;
    const projectDir = `${path.posix.join(root.outDir, path.posix.relative(root.rootDir, 'clients/typescript/src'))}/`;
    for (const readme of ['README.md', 'clients/typescript/README.md']) {
      const text = readFileSync(path.join(ROOT, readme), 'utf8').replace(/\s+/g, ' ');
      for (const said of [`\`${packageDir}\``, `\`clients/typescript/${main}\``, `\`${projectDir}\``, '`npx tsc -p .`', '`npm run build:client`']) {
        assert.ok(text.includes(said), `${readme} names ${said}`);
      }
    }
  });
});
