import { describe, expect, it } from 'vitest';
import { extractPlanDocuments, planFilesFromResponse, revisedPlanFiles } from './plan-response.js';

describe('plan response parsing', () => {
  it('extracts both tagged documents, case-insensitively and without code fences', () => {
    const text =
      'Here it is.\n<plan_md>\n```markdown\n# PLAN.md\nGoal\n```\n</PLAN_MD>\n<TODO_MD>\n- [ ] Setup\n</todo_md>';
    expect(extractPlanDocuments(text)).toEqual({ plan: '# PLAN.md\nGoal', todo: '- [ ] Setup' });
  });

  it('accepts a reply cut off before its closing tags', () => {
    expect(extractPlanDocuments('<PLAN_MD># P\n<TODO_MD>- [ ] A')).toEqual({
      plan: '# P',
      todo: '- [ ] A',
    });
  });

  it('normalises the files it creates: titles, IDs, final newline', () => {
    const files = planFilesFromResponse(
      '<PLAN_MD>Goal: x</PLAN_MD><TODO_MD>- [ ] Setup</TODO_MD>',
      'p',
    );
    expect(files).toEqual({
      plan: '# PLAN.md\n\nGoal: x\n',
      todo: '# TODO.md\n\n- [ ] TC-001 Setup\n',
    });
  });

  it('falls back to an English template and one item naming the request', () => {
    const files = planFilesFromResponse('I would start with the parser.', '  build\n the CLI ');
    expect(files.plan).toContain('## Goal understanding\n\nI would start with the parser.');
    expect(files.plan).toContain('## Risks and verification');
    expect(files.todo).toBe('# TODO.md\n\n- [ ] TC-001 build the CLI\n');
    const empty = planFilesFromResponse('', '');
    expect(empty.plan).toContain('No prompt provided.');
    expect(empty.todo).toBe('# TODO.md\n\n- [ ] TC-001 Complete the current user request\n');
  });

  it('replaces a TODO without any checkbox by the default item', () => {
    const files = planFilesFromResponse(
      '<PLAN_MD># P</PLAN_MD><TODO_MD>just prose</TODO_MD>',
      'go',
    );
    expect(files.todo).toBe('# TODO.md\n\n- [ ] TC-001 go\n');
  });

  it('revises a plan keeping completed items, and keeps it all when the reply has no document', () => {
    const current = { plan: '# PLAN.md\nold\n', todo: '- [x] TC-001 A\n- [ ] TC-002 B\n' };
    expect(revisedPlanFiles(current, 'no tags here')).toBeUndefined();
    expect(revisedPlanFiles(current, '<TODO_MD>…</TODO_MD>')).toBeUndefined();
    expect(revisedPlanFiles(current, '<TODO_MD>- [ ] TC-003 C</TODO_MD>')).toEqual({
      plan: '# PLAN.md\nold\n',
      todo: '# TODO.md\n\n- [x] TC-001 A\n- [ ] TC-003 C\n',
    });
  });
});
