/**
 * Call spreads in src/: `f(...xs)` and `new F(...xs)` pass every element of `xs` as an argument, and past
 * about 100,000 of them V8 throws `RangeError: Maximum call stack size exceeded` (issue 37: `rows.push(...batch)`
 * crashed an ordered query over a 440,000-row index). Array and object literals (`[...xs]`, `{ ...o }`) iterate
 * and are fine. Found with the TypeScript compiler API, so comments and strings never count.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

export interface CallSpread {
  /** Path relative to the root, with `/`. */
  file: string;
  line: number;
  /** The spread expression's text, as the allow-list names it (`bytes.subarray(i, i + 4)`). */
  spread: string;
  /** The called expression's text (`rows.push`, `h`). */
  callee: string;
}

/** Every `...x` passed as an argument of a call or `new` in `file`. */
export function callSpreads(file: string, root: string): CallSpread[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: CallSpread[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isSpreadElement(node) && (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent))) {
      out.push({
        file: relative(root, file).split('\\').join('/'),
        line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
        spread: node.expression.getText(sf).replace(/\s+/g, ' '),
        callee: node.parent.expression?.getText(sf) ?? '',
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
