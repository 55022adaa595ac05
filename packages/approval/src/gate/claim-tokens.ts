import { randomBytes } from 'node:crypto';
import type { PreImage } from '../store/pre-image.js';

/** What an approved claim lets through: one call, with exactly this id and hash. */
export interface ClaimGrant {
  approvalId: string;
  callId: string;
  toolCallHash: string;
  preImage: PreImage;
}

/**
 * The gate's unforgeable, single-use passes for approved calls: the token is random and only this
 * gate instance knows what it grants, so a grant from anywhere else (or a replay) gets nothing.
 *
 * @example
 * const token = tokens.issue(grant);
 * tokens.take(token, call.id, hash); // the grant, once; undefined after that
 */
export class ClaimTokens {
  readonly #grants = new Map<string, ClaimGrant>();

  issue(grant: ClaimGrant): string {
    const token = `ct_${randomBytes(24).toString('base64url')}`;
    this.#grants.set(token, grant);
    return token;
  }

  /** The grant for `token` if it is for this call id and hash; it is used up either way. */
  take(token: unknown, callId: string, toolCallHash: string): ClaimGrant | undefined {
    if (typeof token !== 'string') return undefined;
    const grant = this.#grants.get(token);
    if (grant === undefined) return undefined;
    this.#grants.delete(token);
    return grant.callId === callId && grant.toolCallHash === toolCallHash ? grant : undefined;
  }

  /** Forget every token of `approvalId` (its call has been answered). */
  revoke(approvalId: string): void {
    for (const [token, grant] of this.#grants) {
      if (grant.approvalId === approvalId) this.#grants.delete(token);
    }
  }
}
