/**
 * A PostgreSQL URL safe to show: the password becomes `***` (the user stays, so the URL is still
 * recognisable) and so does the value of every query parameter (`sslpassword`, `sslkey` and the
 * like can be secrets). Works on text, so a value that is not a valid URL is still safe to show.
 *
 * @example
 * maskPostgresUrl('postgres://claw:hunter2@db:5432/claw?sslmode=require');
 * // 'postgres://claw:***@db:5432/claw?sslmode=***'
 */
export function maskPostgresUrl(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*)(.*)$/s.exec(url.trim());
  if (!match) return '***';
  const [, scheme = '', userinfo, rest = '', query = ''] = match;
  let user = '';
  if (userinfo !== undefined) {
    const body = userinfo.slice(0, -1);
    const colon = body.indexOf(':');
    user = colon === -1 ? `${body}@` : `${body.slice(0, colon)}:***@`;
  }
  const maskedQuery = query.replace(/([?#&;])([^?#&;=]*)(=[^?#&;]*)?/g, (_m, sep, name, value) =>
    value === undefined || value === '=' ? `${sep}${name}${value ?? ''}` : `${sep}${name}=***`,
  );
  return `${scheme}${user}${rest}${maskedQuery}`;
}
