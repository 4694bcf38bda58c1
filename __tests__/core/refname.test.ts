/** Ref-name rules, checked against `git check-ref-format` as the oracle. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import {
  assertNotReservedRef,
  assertValidRefName,
  RESERVED_REF_SPACES,
  reservedSpaceProblem,
  sectionRef,
} from '../../src/core/refname.js';
import { BASE_ENV } from './git-helpers.js';

function gitAccepts(ref: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', ref], { env: BASE_ENV, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ours(ref: unknown): boolean {
  try {
    assertValidRefName(ref);
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).data.field).toBe('ref');
    return false;
  }
}

describe('assertValidRefName', () => {
  const accepted = [
    'refs/docdb/documents',
    'refs/docdb/project-a/documents',
    'refs/my.root/sect_ion',
    'refs/docdb/ünïcødé',
    'refs/a/b.c/d',
  ];
  const rejected = [
    'docdb/documents',
    'refs/documents',
    'refs/docdb//documents',
    'refs/docdb/documents/',
    'refs/docdb/.hidden',
    'refs/docdb/doc.lock',
    'refs/docdb/a..b',
    'refs/docdb/a@{1}',
    'refs/docdb/end.',
    'refs/docdb/with space',
    'refs/docdb/tab\there',
    'refs/docdb/ctl\u0001',
    'refs/docdb/del\u007f',
    'refs/docdb/til~de',
    'refs/docdb/car^et',
    'refs/docdb/co:lon',
    'refs/docdb/q?',
    'refs/docdb/st*r',
    'refs/docdb/br[acket',
    'refs/docdb/back\\slash',
  ];
  for (const ref of accepted) {
    it(`accepts ${JSON.stringify(ref)} (and so does git)`, () => {
      expect(ours(ref)).toBe(true);
      expect(gitAccepts(ref)).toBe(true);
    });
  }
  for (const ref of rejected) {
    it(`rejects ${JSON.stringify(ref)}`, () => {
      expect(ours(ref)).toBe(false);
      // Stricter than git only in requiring refs/<root>/<section>; everything else git also rejects.
      if (ref !== 'refs/documents' && ref !== 'docdb/documents') expect(gitAccepts(ref)).toBe(false);
    });
  }

  it('rejects non-strings and names the configured field', () => {
    expect(ours(undefined)).toBe(false);
    try {
      assertValidRefName('nope', 'section');
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidConfig).data).toMatchObject({ field: 'section' });
      expect((e as Error).message).toContain('"nope"');
    }
  });

  it('sectionRef joins and validates', () => {
    expect(sectionRef('docdb', 'documents')).toBe('refs/docdb/documents');
    expect(sectionRef('docdb', 'proj/documents')).toBe('refs/docdb/proj/documents');
    expect(() => sectionRef('docdb', 'bad..name')).toThrow(InvalidConfig);
    expect(() => sectionRef('', 'documents')).toThrow(InvalidConfig);
  });
});

describe("a section's reserved spaces (issue 37 item 14)", () => {
  for (const { suffix } of RESERVED_REF_SPACES) {
    it(`refuses refs in the "${suffix}/" space, naming the field, the space and the section's own ref`, () => {
      for (const ref of [`refs/docdb/documents${suffix}/1`, `refs/docdb/documents${suffix}`]) {
        expect(() => assertNotReservedRef(ref, '--ref')).toThrow(InvalidConfig);
        expect(() => assertNotReservedRef(ref, '--ref')).toThrow(
          new RegExp(
            `^--ref "${ref.replace('.', '\\.')}" is in a reserved space: a component ending in "\\${suffix}".*use the section's own ref refs/docdb/documents,`,
          ),
        );
        // git itself accepts these names: only docdb reserves them.
        expect(gitAccepts(ref)).toBe(true);
      }
      expect(() => sectionRef('docdb', `documents${suffix}/1`)).toThrow(/reserved space/);
      expect(() => sectionRef(`docdb${suffix}`, 'documents')).toThrow(/reserved space/);
      expect(reservedSpaceProblem(`documents${suffix}`)).toMatch(/reserved space/);
    });
  }

  it('keeps names that only resemble a reserved space', () => {
    for (const ref of [
      'refs/docdb/documents',
      'refs/docdb/shards',
      'refs/docdb/documents-shards/1',
      'refs/docdb/a.shardsx',
    ]) {
      expect(() => assertNotReservedRef(ref)).not.toThrow();
      expect(reservedSpaceProblem(ref)).toBeUndefined();
    }
  });

  it('lists .shards, .quarantine and .previews', () => {
    expect(RESERVED_REF_SPACES.map((s) => s.suffix)).toEqual(['.shards', '.quarantine', '.previews']);
  });
});
