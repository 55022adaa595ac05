import { describe, expect, it } from 'vitest';
import { maskPostgresUrl } from './postgres-url.js';

describe('maskPostgresUrl', () => {
  it.each([
    ['postgres://claw:hunter2@db:5432/claw', 'postgres://claw:***@db:5432/claw'],
    ['postgresql://claw@db/claw', 'postgresql://claw@db/claw'],
    ['postgres://db/claw', 'postgres://db/claw'],
    ['postgres://u:p@ss@w0rd@db/claw', 'postgres://u:***@db/claw'],
    [
      'postgres://db/claw?sslmode=require&sslpassword=s3cret',
      'postgres://db/claw?sslmode=***&sslpassword=***',
    ],
    ['postgres://db/claw?ssl', 'postgres://db/claw?ssl'],
    ['not a url', '***'],
  ])('shows %j as %j', (url, shown) => {
    expect(maskPostgresUrl(url)).toBe(shown);
  });
});
