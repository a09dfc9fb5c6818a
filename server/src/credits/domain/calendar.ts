/** The site's calendar days and months in the budget's time zone. No clock: the instant is always given. */

export type CalendarDay = string;
export type CalendarMonth = string;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(name: string): boolean {
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

function wallClock(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(at)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)])
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return parts;
}

function offsetAt(at: Date, timeZone: string): number {
  const wall = wallClock(at, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

const pad = (value: number, digits = 2) => String(value).padStart(digits, '0');

export function dayOf(at: Date, timeZone: string): CalendarDay {
  const wall = wallClock(at, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

export function monthOf(at: Date, timeZone: string): CalendarMonth {
  return dayOf(at, timeZone).slice(0, 7);
}

/** Where midnight does not exist (clocks put forward at 00:00), the first instant of the day. */
export function startOfDay(day: CalendarDay, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const midnightAsUtc = Date.UTC(year, month - 1, date);
  // The offset may differ on either side of a change of the clocks: read it where the guess lands.
  let at = midnightAsUtc - offsetAt(new Date(midnightAsUtc), timeZone);
  at = midnightAsUtc - offsetAt(new Date(at), timeZone);
  if (dayOf(new Date(at), timeZone) !== day) {
    // Midnight skipped: the day began at the first instant its own date shows.
    at += 60 * 60 * 1000;
  }
  return new Date(at);
}

export function monthBounds(month: CalendarMonth, timeZone: string): { start: Date; end: Date } {
  const [year, number] = month.split('-').map(Number);
  const next = number === 12 ? `${pad(year + 1, 4)}-01` : `${pad(year, 4)}-${pad(number + 1)}`;
  return { start: startOfDay(`${month}-01`, timeZone), end: startOfDay(`${next}-01`, timeZone) };
}

export function lastDays(at: Date, count: number, timeZone: string): CalendarDay[] {
  const today = dayOf(at, timeZone);
  const [year, month, date] = today.split('-').map(Number);
  const days: CalendarDay[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    // Calendar arithmetic on the date itself: no instant, so no change of the clocks in the way.
    const day = new Date(Date.UTC(year, month - 1, date - back));
    days.push(`${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`);
  }
  return days;
}

/** Reaches back to the month's first day when the month began before the last `count` days. */
export function usageWindow(at: Date, count: number, timeZone: string): CalendarDay[] {
  const dayOfMonth = Number(dayOf(at, timeZone).slice(8, 10));
  return lastDays(at, Math.max(count, dayOfMonth), timeZone);
}
