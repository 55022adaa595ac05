import { stopReasons } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import {
  ExitCode,
  exitCodeForRun,
  exitCodeForSignal,
  exitCodeForStopReason,
} from './exit-codes.js';

describe('exit codes', () => {
  it('only a final answer exits 0: every other stop reason has a non-zero code', () => {
    for (const reason of stopReasons) {
      const code = exitCodeForStopReason(reason);
      if (reason === 'final') expect(code).toBe(0);
      else expect(code, reason).not.toBe(0);
    }
  });

  it('a run stopped without a final answer exits 3 (out of steps, blocked tool call)', () => {
    expect(exitCodeForStopReason('max_steps_exhausted')).toBe(3);
    expect(exitCodeForStopReason('tool_policy_blocked')).toBe(3);
  });

  it('a paused run exits 4, a provider failure 70, a failed resume 1', () => {
    expect(exitCodeForStopReason('approval_required')).toBe(4);
    expect(exitCodeForStopReason('provider_error')).toBe(70);
    expect(exitCodeForStopReason('provider_error', 'empty_turns')).toBe(3);
    expect(exitCodeForStopReason('approval_resume_failed')).toBe(1);
  });

  it('a run cancelled by SIGINT exits 130, by SIGTERM or SIGHUP 143', () => {
    expect(exitCodeForRun('cancelled', 'SIGINT')).toBe(130);
    expect(exitCodeForRun('cancelled', 'SIGTERM')).toBe(143);
    expect(exitCodeForRun('cancelled', 'SIGHUP')).toBe(143);
    expect(exitCodeForSignal('SIGHUP')).toBe(ExitCode.terminated);
  });

  it('a run that finished as the signal came reports how it finished', () => {
    expect(exitCodeForRun('final', 'SIGTERM')).toBe(0);
    expect(exitCodeForRun('approval_required', 'SIGHUP')).toBe(4);
    expect(exitCodeForRun('max_steps_exhausted', undefined)).toBe(3);
  });
});
