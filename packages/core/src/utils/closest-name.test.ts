import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from './closest-name.js';

describe('editDistance counts single-character edits, a swap of neighbours as one', () => {
  it.each([
    ['bash', 'bash', 0],
    ['bahs', 'bash', 1],
    ['modle', 'model', 1],
    ['rea', 'read', 1],
    ['reads', 'read', 1],
    ['wirte', 'write', 1],
    ['edti', 'edit', 1],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
  ])('%j → %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closestName suggests what a mistyped name most likely meant', () => {
  const tools = ['bash', 'edit', 'read', 'write'];
  const options = ['apiKey', 'baseURL', 'model', 'timeoutMs'];

  it.each([
    ['bahs', tools, {}, 'bash'],
    ['Bash', tools, {}, 'bash'],
    ['wrtie', tools, {}, 'write'],
    ['base_url', options, { loose: true }, 'baseURL'],
    ['BaseURL', options, { loose: true }, 'baseURL'],
    ['baseurl', options, { loose: true }, 'baseURL'],
    ['api-key', options, { loose: true }, 'apiKey'],
    ['modle', options, { loose: true, maxDistance: 1 }, 'model'],
    ['colour', options, { loose: true, maxDistance: 2 }, undefined],
    ['anything', [], {}, undefined],
  ] as const)('%j among %j (%j) → %j', (name, candidates, opts, expected) => {
    expect(closestName(name, candidates, opts)).toBe(expected);
  });

  it('picks the first candidate on a tie', () => {
    expect(closestName('cat', ['bat', 'hat'])).toBe('bat');
  });
});
