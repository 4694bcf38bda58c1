import { describe, expect, it } from 'vitest';
import { parseTemplate, renderTemplate, TemplateError, templateVariables } from '../../src/projection/spec/template.js';

describe('identity templates', () => {
  it('parses variables and literals', () => {
    expect(parseTemplate('{repo}#{number}')).toEqual([{ variable: 'repo' }, { literal: '#' }, { variable: 'number' }]);
    expect(parseTemplate('plain')).toEqual([{ literal: 'plain' }]);
    expect(parseTemplate('a{{b}}c')).toEqual([{ literal: 'a{b}c' }]);
    expect(templateVariables('{owner}/{name}-{owner}')).toEqual(['owner', 'name']);
  });

  it('renders with values', () => {
    expect(renderTemplate('{owner}/{name}', { owner: 'octo', name: 'hello' })).toBe('octo/hello');
    expect(renderTemplate('{repo}#{number}', { repo: 'o/r', number: 12 })).toBe('o/r#12');
    expect(renderTemplate('{{x}}-{a}', { a: 1 })).toBe('{x}-1');
  });

  it('rejects malformed templates with the offset', () => {
    expect(() => parseTemplate('{owner')).toThrow(TemplateError);
    expect(() => parseTemplate('a}b')).toThrow(/unmatched "}"/);
    expect(() => parseTemplate('{a-b}')).toThrow(/not a variable name/);
    try {
      parseTemplate('ab{');
    } catch (e) {
      expect((e as TemplateError).offset).toBe(2);
    }
  });

  it('fails when a variable has no value', () => {
    expect(() => renderTemplate('{tag}', { tag: '' })).toThrow(/\{tag\} has no value/);
    expect(() => renderTemplate('{tag}', {})).toThrow(TemplateError);
  });
});
