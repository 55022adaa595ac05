import { describe, expect, it } from 'vitest';
import { StateError } from '../errors.js';
import {
  appendTodoBlocker,
  keepCompletedItems,
  markTodoDone,
  nextOpenItem,
  normalizeTodoMarkdown,
  parseTodoItems,
} from './todo-grammar.js';

describe('TODO grammar', () => {
  it('parses checkbox lines with explicit IDs and gives the others TC-<position>', () => {
    const todo =
      '# TODO.md\n\n- [x] AB1-010 Set up\n  -  [X]  second one \n- [ ] Third\nnot an item\n';
    expect(parseTodoItems(todo)).toEqual([
      { id: 'AB1-010', text: 'Set up', done: true, line: 2 },
      { id: 'TC-002', text: 'second one', done: true, line: 3 },
      { id: 'TC-003', text: 'Third', done: false, line: 4 },
    ]);
  });

  it('reads CRLF files and ignores blocker lines and lower-case pseudo IDs', () => {
    const items = parseTodoItems('- [ ] tc-001 lower\r\n- TC-001: a blocker\r\n');
    expect(items).toEqual([{ id: 'TC-001', text: 'tc-001 lower', done: false, line: 0 }]);
  });

  it('picks the first unchecked item as the next one', () => {
    const items = parseTodoItems('- [x] TC-001 a\n- [ ] TC-002 b\n- [ ] TC-003 c\n');
    expect(nextOpenItem(items)?.id).toBe('TC-002');
    expect(nextOpenItem(parseTodoItems('- [x] TC-001 a\n'))).toBeUndefined();
  });

  it('marks only the checkbox of the item it names', () => {
    const todo = '# TODO.md\n\n- [ ] TC-001 keep [ ] inside\n- [ ] TC-002 other';
    expect(markTodoDone(todo, 'TC-001')).toBe(
      '# TODO.md\n\n- [x] TC-001 keep [ ] inside\n- [ ] TC-002 other\n',
    );
  });

  it('refuses to mark an unknown ID', () => {
    expect(() => markTodoDone('- [ ] TC-001 a\n', 'TC-009')).toThrow(StateError);
  });

  it('creates a Blockers section at the end with the reason on one line', () => {
    const todo = '# TODO.md\n\n- [ ] TC-001 Setup\n';
    expect(appendTodoBlocker(todo, 'TC-001', '  no\n\nnetwork\taccess ')).toBe(
      '# TODO.md\n\n- [ ] TC-001 Setup\n\n## Blockers\n\n- TC-001: no network access\n',
    );
    expect(appendTodoBlocker(todo, 'TC-001', ' ')).toContain('- TC-001: No details provided.');
  });

  it('adds a blocker inside the existing section, before a section that follows it', () => {
    const todo = '- [ ] TC-001 a\n\n## Blockers\n\n- TC-001: first\n\n## Notes\n\nkeep me\n';
    expect(appendTodoBlocker(todo, 'TC-001', 'second')).toBe(
      '- [ ] TC-001 a\n\n## Blockers\n\n- TC-001: first\n- TC-001: second\n\n## Notes\n\nkeep me\n',
    );
  });

  it('normalises a model TODO: title, sequential IDs counted over every checkbox', () => {
    expect(normalizeTodoMarkdown('- [ ] Setup\n- [ ] TC-010 Named\n- [x] Test')).toBe(
      '# TODO.md\n\n- [ ] TC-001 Setup\n- [ ] TC-010 Named\n- [x] TC-003 Test\n',
    );
    expect(normalizeTodoMarkdown('# My list\n- [ ] A')).toBe('# My list\n- [ ] TC-001 A\n');
  });

  it('keeps completed items through a revision and never lets one fake progress', () => {
    const previous = '- [x] TC-001 Setup\n- [x] TC-002 Schema\n- [ ] TC-003 API\n';
    const revised = '# TODO.md\n\n- [ ] TC-002 Schema\n- [x] TC-004 New API\n- [ ] TC-005 Docs\n';
    expect(keepCompletedItems(previous, revised)).toBe(
      '# TODO.md\n\n- [x] TC-001 Setup\n- [x] TC-002 Schema\n- [ ] TC-004 New API\n- [ ] TC-005 Docs\n',
    );
  });
});
