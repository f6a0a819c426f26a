// One definition of each domain word (issue 10): row states, environments, send states and pause
// reasons are listed in shared/domain only; everything else derives from those lists (z.enum(LIST),
// (typeof LIST)[number], Record<Union, …> label maps, Exclude/Extract of the union). This scan reads
// every source file outside shared/domain and fails on a restatement, which would silently fall
// behind the next time a list changes:
// - a literal union type or a literal array (a z.enum list included) that names more than half of
//   one of the lists and is mostly made of its words. A short named subset ('failed' | 'cancelled')
//   is a use of the words and passes; so does another vocabulary that shares a few of them (the
//   event kinds: 'ordered', 'paused'…);
// - an object (or object type) keyed by such a list, unless it is declared with a type (a label map
//   typed Record<RowState, string>: a missing key is then a type error). z.object({ invalid: … })
//   is a restatement: z.record(z.enum(ROW_STATES), …) is not.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS, PAUSE_REASONS, SEND_STATES } from '../../../shared/domain/campaigns.ts';
import { ROW_STATES } from '../../../shared/domain/rows.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const LISTS: Readonly<Record<string, readonly string[]>> = { ROW_STATES, ENVIRONMENTS, SEND_STATES, PAUSE_REASONS };

/** Where the words may be written out: their definition, and the SQL migrations (history, never edited). */
const ALLOWED = ['shared/domain/', 'electron/core/db/migrations/'];
const SCANNED = ['electron', 'shared', 'renderer/src', 'test/e2e', 'test/support'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Group {
  readonly where: string;
  readonly words: readonly string[];
}

const keyText = (name: ts.PropertyName | undefined): string[] =>
  name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? [name.text] : [];

/** An object literal a type checks: `const x: T = {…}`, `{…} satisfies T`, `{…} as T` (not `as const`). */
function typed(node: ts.ObjectLiteralExpression): boolean {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent)) return parent.type !== undefined;
  if (ts.isSatisfiesExpression(parent)) return true;
  if (ts.isAsExpression(parent)) return !(ts.isTypeReferenceNode(parent.type) && parent.type.getText() === 'const');
  return false;
}

/** Every literal union type, array of string literals, and untyped object (or object type) keyed by words, in a file. */
function literalGroups(fileName: string, text: string): Group[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const groups: Group[] = [];
  const at = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isUnionTypeNode(node)) {
      const words = node.types.flatMap((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? [t.literal.text] : []));
      if (words.length > 1) groups.push({ where: at(node), words });
    } else if (ts.isArrayLiteralExpression(node)) {
      const words = node.elements.flatMap((e) => (ts.isStringLiteralLike(e) ? [e.text] : []));
      if (words.length > 1) groups.push({ where: at(node), words });
    } else if (ts.isObjectLiteralExpression(node) && !typed(node)) {
      const words = node.properties.flatMap((p) => keyText(p.name));
      if (words.length > 1) groups.push({ where: at(node), words });
    } else if (ts.isTypeLiteralNode(node)) {
      const words = node.members.flatMap((m) => keyText(m.name));
      if (words.length > 1) groups.push({ where: at(node), words });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return groups;
}

/** The lists a group restates: it names more than half of the list's words, and they are more than half of its own. */
function restated(words: readonly string[]): string[] {
  return Object.entries(LISTS)
    .filter(([, list]) => {
      const shared = list.filter((w) => words.includes(w)).length;
      return shared * 2 > list.length && shared * 2 > words.length;
    })
    .map(([name]) => name);
}

describe('domain words are defined once, in shared/domain', () => {
  it('the scan catches a restated union, array, z.enum and untyped object, and passes a subset or a typed label map', () => {
    const found = (code: string) => literalGroups('x.ts', code).flatMap((g) => restated(g.words));
    expect(found("type E = 'simulator' | 'sandbox' | 'production';")).toEqual(['ENVIRONMENTS']);
    expect(found("const s = z.enum(['draft', 'sending', 'paused', 'done']);")).toEqual(['SEND_STATES']);
    expect(found("type R = 'user' | 'circuit-breaker' | 'auth' | 'mismatch' | 'lease' | 'refused';")).toEqual(['PAUSE_REASONS']);
    expect(found("const all = ['invalid', 'ready', 'sending', 'ordered', 'delivered', 'failed', 'cancelled', 'skipped'];")).toEqual(['ROW_STATES']);
    expect(found("const problems: RowState[] = ['failed', 'cancelled', 'invalid'];")).toEqual([]);
    expect(found("type Polled = Extract<RowState, 'ordered' | 'delivered' | 'cancelled'>;")).toEqual([]);
    expect(found('const counts = z.object({ invalid: n, ready: n, sending: n, ordered: n, delivered: n, failed: n, cancelled: n, skipped: n });')).toEqual(['ROW_STATES']);
    expect(found("const text = { simulator: 'a', sandbox: 'b', production: 'c' } as const;")).toEqual(['ENVIRONMENTS']);
    expect(found('type Rates = { simulator: number; sandbox: number };')).toEqual(['ENVIRONMENTS']);
    expect(found("const text: Record<Environment, string> = { simulator: 'a', sandbox: 'b', production: 'c' };")).toEqual([]);
    expect(found("const text = { simulator: 'a', sandbox: 'b', production: 'c' } satisfies Record<Environment, string>;")).toEqual([]);
    expect(found("const kinds = ['imported', 'sending', 'retried', 'ordered', 'delivered', 'failed', 'cancelled', 'skipped', 'edited', 'paused', 'resumed', 'started', 'done'];")).toEqual([]);
  });

  it('no source file outside shared/domain restates a list of them', () => {
    const offences = SCANNED.flatMap(sourceFiles)
      .map((path) => relative(root, join(root, path)).split(sep).join('/'))
      .filter((path) => !ALLOWED.some((prefix) => path.startsWith(prefix)))
      .flatMap((path) => literalGroups(path, readFileSync(join(root, path), 'utf8')))
      .flatMap((g) => restated(g.words).map((list) => `${g.where} restates ${list}: ${g.words.join(' | ')}`));
    expect(offences).toEqual([]);
  });
});
