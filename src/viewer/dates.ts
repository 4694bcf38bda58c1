/**
 * The viewer's one date format (issue 40 item 13): `2026-11-28 01:07 UTC` — ISO order, to the minute, in
 * UTC and saying so, so every visitor reads the same text and a date on the overview can be compared with
 * one in a version list, a chart's table or the meter's reset time. A chart's axis shows the day alone
 * (`2026-11-28`) where minutes would not fit; its title says the times are UTC.
 */

/**
 * A time as the viewer shows it: `YYYY-MM-DD HH:MM UTC`, or `YYYY-MM-DD` for `'day'`. An ISO string,
 * milliseconds since the epoch or a Date; what is not a date comes back as given (a string) or `''`.
 *
 * @example
 * formatUtc('2026-11-28T01:07:42Z'); // '2026-11-28 01:07 UTC'
 * formatUtc(Date.UTC(2026, 0, 2, 3, 4), 'day'); // '2026-01-02'
 */
export function formatUtc(when: string | number | Date, precision: 'minute' | 'day' = 'minute'): string {
  const d = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(d.getTime())) return typeof when === 'string' ? when : '';
  const iso = d.toISOString();
  return precision === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
