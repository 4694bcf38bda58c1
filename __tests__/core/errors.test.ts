/** The error hierarchy: unique, stable codes; toJSON shape; no secrets in serialised errors. */
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/core/errors.js';
import { ALL_ERRORS, DocDbError, InvalidVersion } from '../../src/core/errors.js';
import { assertValidVersion } from '../../src/core/version.js';

/** Construct any error class with plausible arguments. */
function make(cls: (typeof ALL_ERRORS)[number]): DocDbError {
  switch (cls) {
    case errors.InvalidKey:
      return new errors.InvalidKey('a//b', 'empty-segment', 'bad key');
    case errors.InvalidIdentity:
      return new errors.InvalidIdentity('namespace', 'bad namespace');
    case errors.InvalidDocument:
      return new errors.InvalidDocument('data', 'bad data');
    case errors.InvalidVersion:
      return new errors.InvalidVersion('xyz');
    case errors.InvalidConfig:
      return new errors.InvalidConfig('ref', 'bad ref');
    case errors.ConcurrentUpdate:
      return new errors.ConcurrentUpdate('refs/docdb/documents', 'a'.repeat(40), 3);
    case errors.DocumentTooLarge:
      return new errors.DocumentTooLarge('big.bin', 104857601, 104857600);
    case errors.PreconditionFailed:
      return new errors.PreconditionFailed('a.json', null, 'b'.repeat(40), 'c'.repeat(40));
    case errors.ExpectationsFailed:
      return new errors.ExpectationsFailed([{ expectation: 'count', message: 'too few' }], 'a'.repeat(40));
    case errors.RateLimited:
      return new errors.RateLimited('slow down', { reset: 1700000000, retryAfter: 60 });
    default:
      return new (cls as new (message: string, data?: Record<string, unknown>) => DocDbError)('boom', { status: 500 });
  }
}

describe('errors', () => {
  it('the exported set of codes is exactly this list (renaming one is a breaking change)', () => {
    expect(ALL_ERRORS.map((c) => make(c).code)).toEqual([
      'InvalidKey',
      'InvalidIdentity',
      'InvalidDocument',
      'InvalidVersion',
      'InvalidConfig',
      'NotFound',
      'ConcurrentUpdate',
      'PreconditionFailed',
      'AuthMissing',
      'AuthInvalid',
      'Forbidden',
      'RateLimited',
      'EmptyRepository',
      'UpstreamUnavailable',
      'TransportError',
      'InvalidResponse',
      'InvalidSpec',
      'GitError',
      'DocumentTooLarge',
      'ExpectationsFailed',
    ]);
  });

  it('every error class is in ALL_ERRORS, and every code is unique and equals the class name', () => {
    const exported = Object.values(errors).filter(
      (v): v is typeof DocDbError => typeof v === 'function' && v.prototype instanceof DocDbError,
    );
    expect(new Set(exported)).toEqual(new Set(ALL_ERRORS));
    const codes = ALL_ERRORS.map((c) => make(c).code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const cls of ALL_ERRORS) {
      const e = make(cls);
      expect(e.code).toBe(cls.name);
      expect(e.name).toBe(cls.name);
      expect(e).toBeInstanceOf(DocDbError);
      expect(e).toBeInstanceOf(Error);
      expect(typeof e.stack).toBe('string');
    }
  });

  it('toJSON has name, code, message, data and a summarised cause', () => {
    const cause = new Error('socket hang up');
    const e = new errors.TransportError('request failed', { url: 'https://api.github.com/x' }, { cause });
    expect(e.cause).toBe(cause);
    expect(e.toJSON()).toEqual({
      name: 'TransportError',
      code: 'TransportError',
      message: 'request failed',
      data: { url: 'https://api.github.com/x' },
      cause: 'socket hang up',
    });
    expect(JSON.parse(JSON.stringify(new errors.NotFound('gone')))).toEqual({
      name: 'NotFound',
      code: 'NotFound',
      message: 'gone',
      data: {},
    });
    expect(new errors.NotFound('x', {}, { cause: 'text cause' }).toJSON().cause).toBe('text cause');
  });

  it('structured data of the errors that carry fields', () => {
    const cu = new errors.ConcurrentUpdate('refs/docdb/documents', 'b'.repeat(40), 4);
    expect(cu.otherSha).toBe('b'.repeat(40));
    expect(cu.data).toEqual({ ref: 'refs/docdb/documents', otherSha: 'b'.repeat(40), attempts: 4 });
    expect(cu.message).toMatch(/retryConcurrentWrites/);
    const rl = new errors.RateLimited('limit', { reset: 1700000000, retryAfter: 30, status: 429 });
    expect([rl.reset, rl.retryAfter]).toEqual([1700000000, 30]);
    expect(new errors.InvalidKey(5, 'type', 'm').data).toEqual({ key: '5', rule: 'type' });
    expect(new errors.InvalidIdentity('id', 'm', { value: '..' }).data).toEqual({ field: 'id', value: '..' });
    expect(new errors.InvalidConfig('ref', 'm', { allowed: 'x' }).data).toEqual({ field: 'ref', allowed: 'x' });
  });

  it('no token-like data appears in any serialised error built from public constructors', () => {
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    for (const cls of ALL_ERRORS) {
      const json = JSON.stringify(make(cls));
      expect(json).not.toMatch(/gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|Bearer|[Aa]uthorization/);
      expect(json).not.toContain(token);
    }
  });

  it('assertValidVersion accepts 40 lowercase hex only, with InvalidVersion naming the value', () => {
    expect(() => assertValidVersion('0123456789abcdef0123456789abcdef01234567')).not.toThrow();
    for (const bad of [
      '',
      'HEAD',
      'main',
      '0123456789ABCDEF0123456789ABCDEF01234567',
      'a'.repeat(41),
      'a'.repeat(39),
      7,
    ]) {
      try {
        assertValidVersion(bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidVersion);
        expect((e as InvalidVersion).data.version).toBe(String(bad));
        expect((e as Error).message).toMatch(/40-character/);
      }
    }
  });
});
