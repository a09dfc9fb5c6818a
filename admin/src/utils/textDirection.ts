/** Languages written right to left, by primary subtag. */
const RIGHT_TO_LEFT = new Set(['ar', 'fa', 'he', 'ur']);

/**
 * The direction of text in the admin's language, for the plugin's own containers: Strapi's admin
 * stays left to right, Arabic sentences inside it still read right to left.
 */
export function textDirection(adminLocale: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.has(adminLocale.split(/[-_]/)[0].toLowerCase()) ? 'rtl' : 'ltr';
}
