import type { Voice } from '../speech-client';
import { primaryLanguage } from './language';

/** Short (few credits), with a full stop between sentences. */
export const SAMPLE_TEXTS: Record<string, string> = {
  ar: 'مرحبا، هذا مثال على صوتي. أتمنى أن يعجبك.',
  en: 'Hello, this is a sample of my voice. I hope you like it.',
  fr: 'Bonjour, voici un exemple de ma voix. J’espère qu’elle vous plaît.',
  es: 'Hola, esta es una muestra de mi voz. Espero que te guste.',
  de: 'Hallo, das ist eine Hörprobe meiner Stimme. Ich hoffe, sie gefällt Ihnen.',
  it: 'Ciao, questo è un esempio della mia voce. Spero che ti piaccia.',
  pt: 'Olá, esta é uma amostra da minha voz. Espero que goste.',
  tr: 'Merhaba, bu sesimden bir örnek. Umarım beğenirsiniz.',
  ur: 'السلام علیکم، یہ میری آواز کا نمونہ ہے۔ امید ہے آپ کو پسند آئے گا۔',
  fa: 'سلام، این نمونه‌ای از صدای من است. امیدوارم خوشتان بیاید.',
  hi: 'नमस्ते, यह मेरी आवाज़ का एक नमूना है। आशा है आपको पसंद आएगा।',
  ru: 'Здравствуйте, это образец моего голоса. Надеюсь, он вам понравится.',
};
export const FALLBACK_LANGUAGE = 'en';

export function sampleFor(voice: Pick<Voice, 'id' | 'language'> | { id: string; language?: string }): { language: string; text: string } {
  for (const candidate of [primaryLanguage(voice.language), primaryLanguage(voice.id)]) {
    if (candidate && SAMPLE_TEXTS[candidate]) return { language: candidate, text: SAMPLE_TEXTS[candidate] };
  }
  return { language: FALLBACK_LANGUAGE, text: SAMPLE_TEXTS[FALLBACK_LANGUAGE] };
}
