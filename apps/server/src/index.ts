/**
 * @tiny-claw/server — not built yet. This package exists so the workspace layout and the dependency law
 * hold from the first commit; it exports nothing until its issue lands (see README).
 *
 * @module
 */
export {};
