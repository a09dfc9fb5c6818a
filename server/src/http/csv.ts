/**
 * One line of the plugin's CSV exports, the ledger's and the listening's (RFC 4180). Written by hand: a line is a dozen fields, and the one
 * rule a library would not apply by default is the guard against formulas. Titles are the
 * editors' text: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return would be run
 * as a formula by a spreadsheet (CSV injection, OWASP), so it is prefixed with a quote. Numbers are
 * written as numbers (a negative one is not text to guard). Pure.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
