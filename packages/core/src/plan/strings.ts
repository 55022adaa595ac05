/**
 * Text of the plan modes that the model or the user sees, kept in one place so it can be reviewed
 * and a locale added later. The marker protocol itself (`PLAN_STEP_STATUS:`) lives in
 * `plan-status.ts` because code parses it.
 */
export const planText = {
  /** System message appended after the user's request when a plan has to be written. */
  createPlan: [
    'Plan Mode is ON. Do not call tools in this step: write the plan for the request above.',
    'Return exactly two Markdown documents, each wrapped in its own tags, and nothing else:',
    '<PLAN_MD>',
    '# PLAN.md',
    '…',
    '</PLAN_MD>',
    '<TODO_MD>',
    '# TODO.md',
    '',
    '- [ ] TC-001 Create project files',
    '</TODO_MD>',
    'PLAN.md must cover: goal understanding, architecture, technical choices, global plan, constraints, risks and verification strategy.',
    'TODO.md must list small, verifiable steps in execution order as Markdown checkboxes with stable IDs, like `- [ ] TC-001 Create project files`. Each item should be finishable in one focused pass.',
  ].join('\n'),

  /** Opening of the user message that starts the execution of one TODO item. */
  executeIntro: [
    'Plan-Act execution phase is ON. Continue from the persisted session plan files below.',
    'Execute exactly the current TODO item, and do not work ahead.',
    'You may call the available tools to do it: read files, create files, edit files, and run commands.',
    'Any plan-mode restrictions written in PLAN.md (such as "do not call tools") apply to the planning phase, not to this execution phase.',
  ].join('\n'),
  currentTodo: (item: string): string => `Current TODO: ${item}`,
  executeStatusRules: (marker: string): string =>
    [
      'When the current TODO is done, end your reply with this exact line:',
      `${marker} completed`,
      `If you cannot complete it, end your reply with the line \`${marker} blocked\` followed by a short reason.`,
      `If the plan itself is wrong or outdated and must change before you can go on, end your reply with the line \`${marker} needs_replan\` followed by what should change.`,
    ].join('\n'),

  /** Opening of the user message that asks for a revised plan after `needs_replan`. */
  replanIntro: [
    'Plan Mode is ON again: the plan must be revised before execution continues. Do not call tools in this step.',
  ].join('\n'),
  replanReason: (item: string, reason: string): string =>
    `While executing ${item} you asked for a new plan: ${reason}`,
  replanRules: [
    'Return the revised plan as exactly two Markdown documents wrapped in <PLAN_MD>…</PLAN_MD> and <TODO_MD>…</TODO_MD>, and nothing else.',
    'Keep every completed item (`- [x]` lines) unchanged, with its ID. Revise, reorder, add or drop the open items as needed; give new items IDs that are not used above.',
  ].join('\n'),

  planHeading: 'PLAN.md:',
  todoHeading: 'TODO.md:',
  currentPlanHeading: 'Current PLAN.md:',
  currentTodoHeading: 'Current TODO.md:',

  /** Title and sections of the PLAN.md written when the model returned none. */
  defaultPlan: (goal: string): string =>
    [
      '# PLAN.md',
      '',
      '## Goal understanding',
      '',
      goal,
      '',
      '## Architecture',
      '',
      'To be worked out while executing the TODO items.',
      '',
      '## Technical choices',
      '',
      'Follow the conventions already used in the workdir.',
      '',
      '## Global plan',
      '',
      'Work through TODO.md one item at a time.',
      '',
      '## Constraints',
      '',
      'Stay inside the workdir and keep changes minimal.',
      '',
      '## Risks and verification',
      '',
      'Verify each item before marking it complete.',
    ].join('\n'),
  noPrompt: 'No prompt provided.',
  defaultTodoItem: 'Complete the current user request',
  planTitle: '# PLAN.md',
  todoTitle: '# TODO.md',
  blockersHeading: '## Blockers',
  noBlockerDetails: 'No details provided.',
  completedAfterToolError: (error: string): string =>
    `Reported completed, but a tool call failed while working on this item: ${error}`,

  nextTodo: (item: string | undefined): string => `Next TODO: ${item ?? 'none'}`,
  allDone: 'All TODO items are complete.',
};
