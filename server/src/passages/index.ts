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
  type VoiceReason,
  type VoiceRun,
} from './domain/passages';
export { detectLanguage, isDetectable } from './language-detector';
export { createPassageVoices, type PassageVoices, type PassageVoiceTarget } from './passage-voices';
