import { describe, expect, it } from 'vitest';
import { planSnapshot } from './plan-files.js';
import { executeTodoPrompt, replanPrompt } from './plan-prompts.js';
import { renderAllDone, renderPlan, renderPlanMemory } from './plan-render.js';

const open = planSnapshot('/s/plan', {
  plan: '# PLAN.md\n\nGoal\n',
  todo: '# TODO.md\n\n- [x] TC-001 Setup\n- [ ] TC-002 Tests\n',
});
const done = planSnapshot('/s/plan', { plan: '# PLAN.md\n', todo: '- [x] TC-001 Setup\n' });

describe('plan renderings', () => {
  it('shows the plan, the checklist and the next item', () => {
    expect(renderPlan(open)).toBe(
      '# PLAN.md\n\nGoal\n\n# TODO.md\n\n- [x] TC-001 Setup\n- [ ] TC-002 Tests\n\nNext TODO: TC-002 Tests',
    );
    expect(renderPlan(done).endsWith('Next TODO: none')).toBe(true);
  });

  it('says when every item is complete', () => {
    expect(renderAllDone(done)).toBe(
      '# PLAN.md\n\n- [x] TC-001 Setup\n\nAll TODO items are complete.',
    );
  });

  it('records where the plan is and what is next, not the whole plan, in memory', () => {
    expect(renderPlanMemory(open)).toBe('session_plan=/s/plan\nnext_todo=TC-002 Tests');
    expect(renderPlanMemory(done)).toBe('session_plan=/s/plan\nnext_todo=none');
  });
});

describe('plan prompts', () => {
  it('uses the plan-act execution wording that allows tools in this phase', () => {
    const prompt = executeTodoPrompt(open, { id: 'TC-002', text: 'Tests' });
    expect(prompt.startsWith('Plan-Act execution phase is ON')).toBe(true);
    expect(prompt).toContain('You may call the available tools');
    expect(prompt).toContain('create files, edit files, and run commands');
    expect(prompt).toContain('not to this execution phase');
    expect(prompt).toContain('Current TODO: TC-002 Tests');
    expect(prompt).toContain('PLAN_STEP_STATUS: completed');
    expect(prompt).toContain('PLAN.md:\n# PLAN.md\n\nGoal\n\nTODO.md:\n# TODO.md');
  });

  it('asks a replan to keep completed items with their IDs', () => {
    const prompt = replanPrompt(open, { id: 'TC-002', text: 'Tests' }, 'the runner changed');
    expect(prompt).toContain(
      'While executing TC-002 Tests you asked for a new plan: the runner changed',
    );
    expect(prompt).toContain('Current TODO.md:\n# TODO.md\n\n- [x] TC-001 Setup');
    expect(prompt).toContain('Keep every completed item');
  });
});
