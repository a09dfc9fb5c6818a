/** Every passage in its own voice (docs/passage-voices.md). Other features import it from here. */
export {
  languageOf,
  passageKey,
  passagesOf,
  passageVoiceSettings,
  voiceRuns,
  type DetectLanguage,
  type Passage,
  type PassageVoiceSettings,
} from './domain/passages';
export { detectLanguage } from './language-detector';
export { createPassageVoices } from './passage-voices';
