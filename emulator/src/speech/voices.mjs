/**
 * The emulator's voice catalogue. The spec does not show a voice resource; these fields
 * (id, name, language, gender) are the emulator's choice. `espeakVoice` is internal and
 * never sent to clients.
 */

/** @typedef {{ id: string, name: string, language: string, gender: 'male'|'female', espeakVoice: string }} Voice */

/** @type {Voice[]} */
export const VOICES = [
  { id: 'ar-male-1', name: 'Karim (Arabic)', language: 'ar', gender: 'male', espeakVoice: 'ar' },
  { id: 'ar-male-2', name: 'Omar (Arabic)', language: 'ar', gender: 'male', espeakVoice: 'ar+m3' },
  { id: 'ar-female-1', name: 'Layla (Arabic)', language: 'ar', gender: 'female', espeakVoice: 'ar+f3' },
  { id: 'en-male-1', name: 'James (English)', language: 'en', gender: 'male', espeakVoice: 'en-us' },
  { id: 'en-female-1', name: 'Emma (English)', language: 'en', gender: 'female', espeakVoice: 'en-us+f3' },
];

const byId = new Map(VOICES.map((v) => [v.id, v]));

/** @param {string} id @returns {Voice | undefined} */
export function findVoice(id) {
  return byId.get(id);
}

/** Public shape of a voice. @param {Voice} voice */
export function publicVoice({ id, name, language, gender }) {
  return { id, name, language, gender };
}

/** What a syntactically valid voice id looks like (TTS answers 400 otherwise, 404 if well-formed but unknown). */
export const VOICE_ID_PATTERN = /^[a-z]{2,3}-[a-z0-9]+(-[a-z0-9]+)*$/;
