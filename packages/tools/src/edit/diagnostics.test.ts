import { describe, expect, it } from 'vitest';
import { describeNotFound, findClosestRegion, visibleWhitespace } from './diagnostics.js';

const file = [
  'import x from "x";',
  '',
  'export function render(items) {',
  '\tconst out = [];',
  '\tfor (const item of items) out.push(item.name);',
  '\treturn out.join(", ");',
  '}',
  '',
].join('\n');

describe('not-found diagnostics', () => {
  it('names the closest region and its line number', () => {
    const old =
      'export function render(items) {\n    const out = [];\n\tfor (const item of items) out.push(item.name);';
    expect(findClosestRegion(file, old)).toMatchObject({ line: 3, lineCount: 3, sameLines: 3 });
    const message = describeNotFound('src/render.ts', file, old, 'not_found');
    expect(message).toContain('could not find old_text in src/render.ts');
    expect(message).toContain('Closest region: line 3');
  });

  it('shows the first differing line with tabs and spaces made visible', () => {
    const old = 'export function render(items) {\n    const out = [];';
    const message = describeNotFound('a.ts', file, old, 'not_found');
    expect(message).toContain('old_text line 2 vs file line 4');
    expect(message).toContain('old_text: ····const·out·=·[];');
    expect(message).toContain('file:     →const·out·=·[];');
  });

  it('always reminds to drop "N: " prefixes, and stresses it when old_text has them', () => {
    expect(describeNotFound('a.ts', file, 'nothing like it', 'not_found')).toContain('"N: "');
    const prefixed = describeNotFound('a.ts', file, '4: \tconst out = [x];\n9: }', 'not_found');
    expect(prefixed).toContain('seems to contain the "N: " line-number prefixes');
  });

  it('finds the region through prefixes copied from read', () => {
    const old = '3: export function render(items) {\n4: \tconst out = {};';
    expect(findClosestRegion(file, old)).toMatchObject({ line: 3 });
  });

  it('falls back to the most similar line when no line is equal', () => {
    const region = findClosestRegion(file, '\treturn out.join("; ");');
    expect(region).toMatchObject({ line: 6, sameLines: 0 });
  });

  it('says so when nothing resembles old_text', () => {
    const message = describeNotFound('a.ts', 'aaa\nbbb\n', 'zzzzzzzzzzzzzz', 'not_found');
    expect(message).toContain('No line of old_text resembles');
  });

  it('mentions the time budget when matching gave up', () => {
    expect(describeNotFound('a.ts', file, 'x', 'time_budget_exceeded')).toContain('time budget');
  });

  it('reports a region running past the end of the file', () => {
    const old = '}\nmore();';
    const message = describeNotFound('a.ts', file, old, 'not_found');
    expect(message).toContain('file:     (end of file');
  });
});

describe('visibleWhitespace', () => {
  it('turns spaces into ·, tabs into → and CR into ␍', () => {
    expect(visibleWhitespace('\tif (a)  \r')).toBe('→if·(a)··␍');
  });
});
