import { describe, expect, it } from 'vitest';
import { toolRefusal } from './tool-refusal.js';

const ID = 'ap_0bX3kR9d2LqvYw7aP1sT4g';
const settings = (
  enabledTools: string[],
  toolAllowlist: string[] = [],
  toolDenylist: string[] = [],
) => ({ enabledTools, toolAllowlist, toolDenylist }) as Parameters<typeof toolRefusal>[2];

describe('approving a call whose tool this process cannot run', () => {
  it('names TINY_CLAW_ENABLED_TOOLS and the value that would enable the tool', () => {
    const message = toolRefusal(ID, 'bash', settings(['read']));
    expect(message).toContain(
      `approval ${ID} is for a bash call, but this process cannot run bash`,
    );
    expect(message).toContain('not in TINY_CLAW_ENABLED_TOOLS (read)');
    expect(message).toContain('the request is still pending');
    expect(message).toContain(
      `TINY_CLAW_ENABLED_TOOLS=read,bash tiny-claw approvals approve ${ID}`,
    );
    expect(toolRefusal(ID, 'bash', settings([]))).toContain('TINY_CLAW_ENABLED_TOOLS (empty)');
  });

  it('names the deny list before anything else when it lists the tool', () => {
    const message = toolRefusal(ID, 'bash', settings(['read', 'bash'], ['bash'], ['bash']));
    expect(message).toContain('TINY_CLAW_TOOL_DENYLIST (bash) denies it');
  });

  it('names the allow list when it leaves the tool out', () => {
    const message = toolRefusal(ID, 'bash', settings(['read', 'bash'], ['read']));
    expect(message).toContain('not in TINY_CLAW_TOOL_ALLOWLIST (read)');
  });
});
