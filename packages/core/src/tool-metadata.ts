/**
 * Metadata attached to tool observations. Known keys are typed; anything else is allowed so
 * middlewares can add their own.
 */
export interface ToolMetadata {
  error_type?: string;
  retryable?: boolean;
  tool_policy?: string;
  tool_call_index?: number;
  suspended?: boolean;
  approval_id?: string;
  checkpoint_id?: string;
  [key: string]: unknown;
}
