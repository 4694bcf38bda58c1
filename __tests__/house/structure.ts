/**
 * The house rules of src/ (issue 19), measured with the TypeScript compiler API: file length, function
 * length, and import cycles among src/ files. Used by structure.test.ts and `node --import tsx` by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface FunctionSize {
  file: string;
  name: string;
  lines: number;
}

/** Every .ts file under `dir` (no .d.ts). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

export function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Functions, methods, arrows and accessors with their line spans (nested ones counted on their own too). */
export function functionSizes(file: string, root: string): FunctionSize[] {
  const sf = parse(file);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node, owner: string): void => {
    let name = owner;
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node) ||
      ts.isConstructorDeclaration(node)
    ) {
      name = functionName(node, owner);
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file: relative(root, file), name, lines: end - start + 1 });
    } else if (ts.isClassDeclaration(node) && node.name) name = node.name.text;
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(sf, '');
  return out;
}

function functionName(node: ts.Node, owner: string): string {
  const n = (node as { name?: ts.Node }).name;
  if (ts.isConstructorDeclaration(node)) return `${owner}.constructor`;
  if (n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n))) return owner ? `${owner}.${n.text}` : n.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return `${owner}.${parent.name.text}`;
  return `${owner || '(module)'}.<anonymous>`;
}

/** Relative imports (value and type) of a file, resolved to .ts files. */
export function importsOf(file: string): string[] {
  const sf = parse(file);
  const out: string[] = [];
  const add = (spec: string) => {
    if (!spec.startsWith('.')) return;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    out.push(target);
  };
  for (const st of sf.statements) {
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier) {
      if (ts.isStringLiteral(st.moduleSpecifier)) add(st.moduleSpecifier.text);
    }
  }
  ts.forEachChild(sf, function walk(node): void {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg)) add(arg.text);
    }
    ts.forEachChild(node, walk);
  });
  return out;
}

/** Strongly connected components of the import graph with more than one file (Tarjan). */
export function importCycles(files: string[], root: string): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(relative(root, w));
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) strong(f);
  return out;
}
