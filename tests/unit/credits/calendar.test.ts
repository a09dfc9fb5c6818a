import { dayOf, isTimeZone, lastDays, monthBounds, monthOf, startOfDay, usageWindow } from '../../../server/src/credits/domain/calendar';

/** The site's calendar (issue 24): a month's credits are counted from its first midnight in the configured zone. */

describe('the calendar of a time zone', () => {
  it('tells the day and the month of an instant where the site is, not in UTC', () => {
    const at = new Date('2026-11-30T23:30:00Z');
    expect(dayOf(at, 'UTC')).toBe('2026-11-30');
    expect(monthOf(at, 'UTC')).toBe('2026-11');
    // Riyadh is three hours ahead: already December.
    expect(dayOf(at, 'Asia/Riyadh')).toBe('2026-12-01');
    expect(monthOf(at, 'Asia/Riyadh')).toBe('2026-12');
    // Los Angeles is eight hours behind.
    expect(monthOf(new Date('2026-12-01T05:00:00Z'), 'America/Los_Angeles')).toBe('2026-11');
  });

  it("gives a month's first and last instant, summer time or not", () => {
    expect(monthBounds('2026-11', 'UTC')).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    // Berlin: October begins in summer time (UTC+2), November in winter time (UTC+1).
    expect(monthBounds('2026-10', 'Europe/Berlin')).toEqual({
      start: new Date('2026-09-30T22:00:00Z'),
      end: new Date('2026-10-31T23:00:00Z'),
    });
    expect(monthBounds('2026-12', 'Asia/Riyadh')).toEqual({
      start: new Date('2026-11-30T21:00:00Z'),
      end: new Date('2026-12-31T21:00:00Z'),
    });
    // The year turns.
    expect(monthBounds('2026-12', 'UTC').end).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('starts a day whose midnight the clocks skip at its first instant', () => {
    // Santiago de Chile put its clocks forward at midnight on 2024-09-08: 00:00 became 01:00 (UTC-3).
    const start = startOfDay('2024-09-08', 'America/Santiago');
    expect(start).toEqual(new Date('2024-09-08T04:00:00Z'));
    expect(dayOf(start, 'America/Santiago')).toBe('2024-09-08');
    expect(dayOf(new Date(start.getTime() - 1000), 'America/Santiago')).toBe('2024-09-07');
  });

  it('starts a day on which the clocks go back at its midnight as the clock read it then, in summer time', () => {
    // Paris leaves summer time at 03:00 on 2026-10-25: that day's midnight is still UTC+2.
    expect(startOfDay('2026-10-25', 'Europe/Paris')).toEqual(new Date('2026-10-24T22:00:00Z'));
    expect(startOfDay('2026-10-26', 'Europe/Paris')).toEqual(new Date('2026-10-25T23:00:00Z'));
  });

  it('counts the last days back from today, across a month and a change of the clocks', () => {
    expect(lastDays(new Date('2026-03-30T12:00:00Z'), 4, 'Europe/Berlin')).toEqual([
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
    expect(lastDays(new Date('2026-03-01T00:30:00Z'), 2, 'Asia/Riyadh')).toEqual(['2026-02-28', '2026-03-01']);
    expect(lastDays(new Date('2026-11-27T12:00:00Z'), 90, 'UTC')).toHaveLength(90);
  });

  it("reaches back to the month's first day when the month began before the usage window", () => {
    const window = (iso: string, count: number, zone = 'UTC') => usageWindow(new Date(iso), count, zone);
    expect(window('2026-12-31T23:59:00Z', 30)).toHaveLength(31);
    expect(window('2026-12-31T23:59:00Z', 30)[0]).toBe('2026-12-01');
    expect(window('2026-12-30T12:00:00Z', 30)).toEqual(lastDays(new Date('2026-12-30T12:00:00Z'), 30, 'UTC'));
    expect(window('2027-01-01T00:01:00Z', 30)[0]).toBe('2026-12-03');
    expect(window('2027-01-31T00:00:00Z', 30)[0]).toBe('2027-01-01');
    expect(window('2028-03-01T00:00:00Z', 30)).toHaveLength(30);
    expect(window('2026-12-31T12:00:00Z', 90)).toHaveLength(90);
    // Already the 31st in Riyadh (UTC+3) while UTC is still on the 30th.
    expect(window('2026-12-30T22:00:00Z', 30, 'Asia/Riyadh')[0]).toBe('2026-12-01');
    expect(window('2026-12-30T22:00:00Z', 30, 'UTC')).toHaveLength(30);
  });

  it('knows a time zone from a name it does not', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
