/**
 * The viewer's one date format (issue 40 items 2 and 13): `2026-11-28 02:07 CET` — ISO order, to the minute,
 * in the visitor's LOCAL time and naming its zone, so a rate limit's reset reads as a time on the visitor's
 * clock, and a date on the overview can still be compared with one in a version list, a chart's table or the
 * meter's reset time (all say the same zone). A chart's axis shows the day alone (`2026-11-28`) where minutes
 * would not fit; its table's heading names the zone.
 */

type When = string | number | Date;

/** Pins what the page leaves to the visitor's browser: an IANA zone and a BCP 47 locale (tests, tools). */
export interface DateZone {
  readonly timeZone?: string;
  readonly locale?: string;
}

/** The parts of a local time, read through Intl (the zone's short name in the visitor's language). */
interface LocalParts {
  readonly day: string;
  readonly time: string;
  readonly zone: string;
}

/**
 * A time as the viewer shows it: `YYYY-MM-DD HH:MM <zone>` in local time, or `YYYY-MM-DD` for `'day'`. An ISO
 * string, milliseconds since the epoch or a Date; what is not a date comes back as given (a string) or `''`.
 * The zone's name is Intl's short name in the visitor's language (`CET` in en-GB, `GMT+1` in en-US), else
 * the offset (`UTC+01:00`). `zone` pins zone and locale for tests and tools; the page passes none.
 *
 * @example
 * formatLocal('2026-11-28T01:07:42Z', 'minute', { timeZone: 'Europe/Paris', locale: 'en-GB' }); // '2026-11-28 02:07 CET'
 * formatLocal(Date.UTC(2026, 0, 2, 3, 4), 'day', { timeZone: 'UTC' }); // '2026-01-02'
 */
export function formatLocal(when: When, precision: 'minute' | 'day' = 'minute', zone: DateZone = {}): string {
  const d = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(d.getTime())) return typeof when === 'string' ? when : '';
  const parts = localParts(d, zone);
  return precision === 'day' ? parts.day : `${parts.day} ${parts.time} ${parts.zone}`;
}

/**
 * The visitor's zone as the viewer names it (`CET`, `GMT+1`, `UTC+01:00`), for headings such as a chart
 * table's "Committed (CET)".
 *
 * @example
 * zoneName(Date.now()); // 'CET' for a visitor in Paris with an en-GB browser
 */
export function zoneName(when: When = Date.now(), zone: DateZone = {}): string {
  const d = when instanceof Date ? when : new Date(when);
  return localParts(Number.isNaN(d.getTime()) ? new Date() : d, zone).zone;
}

function localParts(d: Date, zone: DateZone): LocalParts {
  try {
    return intlParts(d, zone);
  } catch {
    // No Intl time zones (a stripped runtime) or an unknown zone: the host's local clock and its offset.
    return offsetParts(d);
  }
}

function intlParts(d: Date, zone: DateZone): LocalParts {
  const format = new Intl.DateTimeFormat(zone.locale, {
    timeZone: zone.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  const part = new Map(format.formatToParts(d).map((p) => [p.type, p.value]));
  const name = part.get('timeZoneName');
  const local = { year: part.get('year'), month: part.get('month'), day: part.get('day') };
  if (!name || !local.year || !local.month || !local.day) throw new Error('no time zone name');
  const hour = part.get('hour') === '24' ? '00' : part.get('hour');
  return { day: `${local.year}-${local.month}-${local.day}`, time: `${hour}:${part.get('minute')}`, zone: name };
}

function offsetParts(d: Date): LocalParts {
  const pad = (n: number) => String(n).padStart(2, '0');
  const east = -d.getTimezoneOffset();
  const zone = `UTC${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 60))}:${pad(Math.abs(east) % 60)}`;
  return {
    day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
    zone,
  };
}
