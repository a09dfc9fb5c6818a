import type { PassagesResponse } from '../../../../shared/contracts/passages';
import type { Passage } from '../../passages';
import { countCharacters } from './cost';

const SHOWN_CHARACTERS = 200;

export function passagesView(passages: readonly Passage[]): Pick<PassagesResponse, 'passages' | 'voices' | 'unvoicedLanguages'> {
  const voices = new Map<string, { voiceId: string; passages: number; characters: number }>();
  const unvoiced = new Set<string>();
  const listed = passages.map((passage) => {
    const characters = countCharacters(passage.text);
    const voice = voices.get(passage.voiceId) ?? { voiceId: passage.voiceId, passages: 0, characters: 0 };
    voices.set(passage.voiceId, { ...voice, passages: voice.passages + 1, characters: voice.characters + characters });
    if (passage.reason === 'no-voice') unvoiced.add(passage.language);
    const text = [...passage.text];
    return {
      key: passage.key,
      text: text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS).join('')}…` : passage.text,
      characters,
      quote: passage.quote,
      language: passage.language,
      voiceId: passage.voiceId,
      reason: passage.reason,
    };
  });
  return { passages: listed, voices: [...voices.values()], unvoicedLanguages: [...unvoiced] };
}
