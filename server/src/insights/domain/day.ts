/** The UTC calendar day of an instant, YYYY-MM-DD: listening is counted by UTC days. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC day `days` after (or before, negative) `day`. */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return utcDay(at);
}

/** Every day from `from` to `to`, both included, oldest first. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
