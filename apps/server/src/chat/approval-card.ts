import type {
  InteractiveCard,
  InteractiveCardActionItem,
  InteractiveCardElement,
} from '@larksuiteoapi/node-sdk';
import type { ApprovalButtonValue } from '../feishu/card-action.js';
import { argumentLines } from './argument-preview.js';
import { workdirLabel } from './workdir-label.js';

/**
 * What an approval card shows about a paused call.
 *
 * @example
 * const input: ApprovalCardInput = { approvalId: 'ap_…', chatId: 'oc_1', sessionKey: 'feishu-…-chat-oc_1', workdir: '/srv/repo', toolName: 'write', reasons: ['protected file .env'], arguments: { path: '.env' }, expiresAt: '2026-01-01T00:00:00.000Z', requestedBy: 'ou_1' };
 */
export interface ApprovalCardInput {
  approvalId: string;
  chatId: string;
  /** The session the paused run belongs to. */
  sessionKey: string;
  /** The run's workdir; the card shows its last two segments. */
  workdir: string;
  toolName: string;
  reasons: readonly string[];
  arguments: Record<string, unknown>;
  expiresAt: string;
  requestedBy: string;
  /**
   * The rules each "always" button would keep, described (`allow bash npm test`); a button is
   * offered only when its rules would stop the next identical request.
   */
  always?: {
    session?: readonly string[];
    project?: { readonly file: string; readonly rules: readonly string[] };
  };
}

/** How a decided card ends. */
export interface CardOutcome {
  decision: 'approve' | 'reject';
  actor: string;
}

/**
 * The interactive card asking for a decision on a paused call: the tool, why it needs approval,
 * its arguments (previewed and scrubbed by `redact`), the session and workdir it runs in, when the
 * request expires, who asked, and
 * Approve / Reject buttons — with the `/approve` and `/reject` commands spelled out, which always
 * work too. `update_multi` lets the server replace the card for everyone once it is decided.
 *
 * @example
 * const card = approvalCard(input, (text) => sender.redact(text));
 */
export function approvalCard(
  input: ApprovalCardInput,
  redact: (text: string) => string,
): InteractiveCard {
  const button = (
    decision: ApprovalButtonValue['decision'],
    always?: ApprovalButtonValue['always'],
  ): ApprovalButtonValue => ({
    tiny_claw: 'approval',
    decision,
    ...(always === undefined ? {} : { always }),
    approval_id: input.approvalId,
    chat_id: input.chatId,
  });
  const alwaysButtons: InteractiveCardActionItem[] = [];
  const alwaysLines: string[] = [];
  if (input.always?.session) {
    alwaysButtons.push({
      tag: 'button',
      text: { tag: 'plain_text', content: 'Always in this chat' },
      type: 'default',
      value: button('approve', 'session'),
    });
    alwaysLines.push(
      `Always in this chat: approves, and does not ask again in this chat while the server runs (${input.always.session.join('; ')}).`,
    );
  }
  if (input.always?.project) {
    alwaysButtons.push({
      tag: 'button',
      text: { tag: 'plain_text', content: 'Always in this project' },
      type: 'default',
      value: button('approve', 'project'),
    });
    alwaysLines.push(
      `Always in this project: approves, and adds to ${input.always.project.file}: ${input.always.project.rules.join('; ')}.`,
    );
  }
  return {
    config: { wide_screen_mode: true, update_multi: true },
    header: {
      title: { tag: 'plain_text', content: redact(`Approval needed: ${input.toolName}`) },
      template: 'orange',
    },
    elements: [
      ...details(input, redact),
      {
        tag: 'action',
        actions: [
          {
            tag: 'button',
            text: { tag: 'plain_text', content: 'Approve' },
            type: 'primary',
            value: button('approve'),
          },
          {
            tag: 'button',
            text: { tag: 'plain_text', content: 'Reject' },
            type: 'danger',
            value: button('reject'),
          },
          ...alwaysButtons,
        ],
      },
      ...(alwaysLines.length === 0
        ? []
        : [
            {
              tag: 'note',
              // Rules name what the model asked to run: plain text, scrubbed like the arguments.
              elements: [{ tag: 'plain_text', content: redact(alwaysLines.join('\n')) }],
            } as InteractiveCardElement,
          ]),
      {
        tag: 'note',
        elements: [
          {
            tag: 'plain_text',
            content: `Or reply /approve ${input.approvalId} or /reject ${input.approvalId} <reason>. Only the requester or an approver listed in FEISHU_APPROVERS can decide.`,
          },
        ],
      },
    ],
  };
}

/**
 * The same card once decided: the details stay, the buttons give way to who decided what.
 *
 * @example
 * await sender.patchCard(chatId, cardId, decidedCard(input, { decision: 'approve', actor: 'ou_1' }, redact));
 */
export function decidedCard(
  input: ApprovalCardInput,
  outcome: CardOutcome,
  redact: (text: string) => string,
): InteractiveCard {
  const approved = outcome.decision === 'approve';
  return {
    config: { wide_screen_mode: true, update_multi: true },
    header: {
      title: {
        tag: 'plain_text',
        content: redact(`${approved ? 'Approved' : 'Rejected'}: ${input.toolName}`),
      },
      template: approved ? 'green' : 'grey',
    },
    elements: [
      ...details(input, redact),
      {
        tag: 'markdown',
        content: `**${approved ? 'Approved' : 'Rejected'} by** ${mention(outcome.actor)}`,
      },
    ],
  };
}

/**
 * The request's details. What the model or a file chose (tool arguments, reasons) goes in plain
 * text, which Feishu never reads as markdown, so it cannot become a link or an @all mention.
 */
function details(
  input: ApprovalCardInput,
  redact: (text: string) => string,
): InteractiveCardElement[] {
  const reasons = input.reasons.length > 0 ? input.reasons.join('; ') : 'risky tool call';
  const args = argumentLines(input.arguments).map((line) => `  ${line}`);
  const chosen = [
    `Tool: ${input.toolName}`,
    `Why: ${reasons}`,
    'Arguments:',
    ...(args.length > 0 ? args : ['  (none)']),
  ].join('\n');
  // The server's own facts are not scrubbed: a session key would read as a secret after "Session:".
  const own = [
    `Session: ${input.sessionKey}`,
    `Workdir: ${workdirLabel(input.workdir)}`,
    `Expires: ${input.expiresAt}`,
    `Approval id: ${input.approvalId}`,
  ].join('\n');
  return [
    { tag: 'div', text: { tag: 'plain_text', content: `${redact(chosen)}\n${own}` } },
    { tag: 'markdown', content: `**Requested by** ${mention(input.requestedBy)}` },
  ];
}

/** A mention of an open id; anything else (an id from another front end) is shown as text. */
function mention(id: string): string {
  return /^ou_[A-Za-z0-9_-]+$/.test(id)
    ? `<at id=${id}></at>`
    : id.replace(/[^A-Za-z0-9_:.-]/g, '');
}
