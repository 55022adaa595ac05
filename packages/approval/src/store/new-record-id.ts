import { randomBytes } from 'node:crypto';

/**
 * A new approval id: `ap_` and 128 random bits in base64url (25 characters).
 *
 * @example
 * newApprovalId(); // 'ap_0bX3…'
 */
export function newApprovalId(): string {
  return `ap_${randomBytes(16).toString('base64url')}`;
}

/**
 * A new checkpoint id: `cp_` and 128 random bits in base64url (25 characters).
 *
 * @example
 * newCheckpointId(); // 'cp_Yk9…'
 */
export function newCheckpointId(): string {
  return `cp_${randomBytes(16).toString('base64url')}`;
}
