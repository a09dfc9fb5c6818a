/**
 * The playground's admin offers Arabic next to English, so the plugin's Arabic translations can
 * be seen (and tested) in the real admin: Profile -> Interface language.
 */
export default {
  config: {
    locales: ['ar'],
  },
  bootstrap() {},
};
