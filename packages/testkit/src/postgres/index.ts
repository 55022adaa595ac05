/**
 * @tiny-claw/testkit/postgres — a throwaway PostgreSQL cluster per test file, for the tests that
 * need a real database (the PostgreSQL state store's contract, the CLI against it).
 *
 * @example
 * import { startPostgres } from '@tiny-claw/testkit/postgres';
 * let pg: StartedPostgres;
 * beforeAll(async () => { pg = await startPostgres(); });
 * afterAll(() => pg.stop());
 *
 * @module
 */

export { findPostgresBin, POSTGRES_MISSING } from './find-binaries.js';
export { type StartedPostgres, startPostgres } from './start-postgres.js';
