import type { StopReason } from '@tiny-claw/core';
import { workdirLabel } from './workdir-label.js';

/** Every sentence the server says in a chat, in one place. */
export const chatText = {
  textOnly: 'Sorry, I can only read text messages for now. Please send your request as text.',
  working: (mode: string, maxSteps: number): string =>
    `Working on it (${mode} mode, up to ${maxSteps} steps).`,
  busy: 'Too many messages are waiting in this chat. Please wait for the current ones to finish, then send yours again.',
  restarting:
    'The server is restarting and did not get to your message. Please send it again in a moment.',
  commandUsage: (decision: string): string =>
    `To ${decision} a request, write /approve <id> or /reject <id> <reason>, with the id from the approval card (letters, digits, _ and -, 8 to 64 characters).`,
  approvalsOff:
    'Approvals are not decided in this chat: the server runs with TINY_CLAW_APPROVAL_PROVIDER set to something other than feishu.',
  notAllowed: (id: string): string =>
    `Not allowed: only the person who asked for this (or someone listed in FEISHU_APPROVERS) can decide approval ${id}.`,
  refused: (decision: string, id: string, why: string): string =>
    `Could not ${decision} ${id}: ${why}`,
  decided: (decision: 'approve' | 'reject', id: string, actor: string): string =>
    `${decision === 'approve' ? 'Approved' : 'Rejected'} ${id} (by ${actor}). Continuing…`,
  waitingForApproval: (id: string, sessionKey: string, workdir: string): string =>
    `Paused: a tool call needs approval (${id}) in session ${sessionKey}, workdir ${workdirLabel(workdir)}. Approve with /approve ${id} or reject with /reject ${id} <reason>.`,
  emptyAnswer: '(The agent finished without an answer.)',
  stopped: (reason: StopReason, steps: number): string => stopText(reason, steps),
  failed: (why: string): string => `Sorry, the run failed: ${why}`,
  cardDeciding: 'Got it, deciding…',
  kept: (scope: 'session' | 'project', rules: readonly string[], file: string | null): string =>
    scope === 'session'
      ? `Will not ask again in this chat while the server runs: ${rules.join('; ')}.`
      : rules.length === 0
        ? `${file} already holds this rule.`
        : `Added to ${file}: ${rules.join('; ')}.`,
  notKept: (id: string): string =>
    `Approved ${id} once: no rule could cover this call exactly, so the next one will be asked again.`,
  keepFailed: (why: string): string =>
    `Approved, but the rule could not be kept (${why}); it counts until the server restarts.`,
};

function stopText(reason: StopReason, steps: number): string {
  switch (reason) {
    case 'max_steps_exhausted':
      return `Stopped after ${steps} steps without a final answer (the step limit). Ask again with a narrower task.`;
    case 'tool_policy_blocked':
      return 'Stopped: the model tried a tool this run may not use.';
    case 'approval_resume_failed':
      return 'Stopped: the approved call could not be resumed.';
    case 'cancelled':
      return 'Stopped: the run was cancelled (the server is shutting down).';
    case 'provider_error':
      return 'Stopped: the model provider failed.';
    default:
      return `Stopped (${reason}).`;
  }
}
