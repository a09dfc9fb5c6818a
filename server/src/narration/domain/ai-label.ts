/** The player's visible label that the voice is synthetic, by locale (`*`: every other one). */
export const DEFAULT_AI_LABELS: Readonly<Record<string, string>> = { '*': 'AI voice', en: 'AI voice', ar: 'صوت بالذكاء الاصطناعي' };

/** `false`: no label (the configuration file's `player.aiLabel`). */
export type AiLabels = false | Record<string, string>;

/** The narration's locale, then its language, then `*`; the site's words before the defaults. Null when turned off. */
export function aiLabelFor(labels: AiLabels, locale: string | null): string | null {
  if (labels === false) return null;
  const language = locale?.toLowerCase().split('-')[0];
  const keys = [locale, language, '*'].filter((key): key is string => Boolean(key));
  for (const table of [labels, DEFAULT_AI_LABELS]) {
    const key = keys.find((candidate) => Object.prototype.hasOwnProperty.call(table, candidate));
    if (key) return table[key]!;
  }
  return DEFAULT_AI_LABELS['*']!;
}
