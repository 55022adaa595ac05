/**
 * What the explorer is told. Kept here, next to the code that sends it, in English.
 */
export const explorerPrompt = {
  /** Added to the agent's system prompt for the child run. */
  instructions: [
    'You are an Explorer subagent. The main agent handed you one investigation; you work in your own',
    'context and only your final report goes back to it.',
    '',
    'Rules:',
    '- Rely only on what your tools show you. Never invent file names, code, values or results.',
    '- Keep looking while you have no exact answer: follow imports, names and references.',
    '- As soon as you have found the answer, stop calling tools and write the report.',
    '- If you cannot find it, say plainly that it was not found and list what you checked.',
    '- The report is plain text and short: the answer with the evidence (file paths, line numbers),',
    '  with confirmed facts kept apart from guesses. No tool logs, no long quotes.',
  ].join('\n'),

  /** The child's user message: the task, and the tools it has. */
  task: (task: string, tools: readonly string[]): string =>
    [
      'The main agent asks you to investigate the following task.',
      '',
      'Task:',
      task,
      '',
      tools.length > 0
        ? `Use your tools (${tools.join(', ')}) to find evidence. When done, answer only with a short plain-text report.`
        : 'You have no tools: the policy allows none of the read-only tools. Say so in your report and answer only from what you were given.',
    ].join('\n'),

  /** The body when the child ended without any text. */
  emptyFinal: 'Not found: the explorer returned no report.',

  /** The body when the child ran out of steps. */
  exhausted: (
    maxSteps: number,
    lastText: string,
    checked: readonly string[],
    clues: readonly string[],
  ) =>
    [
      `Not found: the explorer reached its step limit (${maxSteps}) without a final answer.`,
      '',
      lastText.trim() === ''
        ? 'It gave no report of its own.'
        : `Its last words:\n${lastText.trim()}`,
      '',
      checked.length > 0
        ? `What it checked:\n${checked.map((line) => `- ${line}`).join('\n')}`
        : 'It checked nothing.',
      ...(clues.length > 0 ? ['', `Last tool results:\n${clues.join('\n\n')}`] : []),
    ].join('\n'),

  /** The body when the child stopped for another reason (cancelled, provider failure, …). */
  stopped: (reason: string, text: string) =>
    `Not found: the explorer stopped (${reason}) before it could report.${text.trim() === '' ? '' : `\n\n${text.trim()}`}`,

  /** Added when the child had no tools at all. */
  noTools:
    'Note: the explorer had no read-only tools (the policy allows none), so it could not read anything.',
} as const;
