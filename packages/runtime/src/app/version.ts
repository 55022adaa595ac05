/** Version of @tiny-claw/runtime, kept in step with package.json by a test. */
export const RUNTIME_VERSION = '0.1.0';
