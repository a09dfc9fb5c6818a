/**
 * strapi-plugin-speech/player: defines `<speech-narration>` (see element.ts). Served as one ES
 * module at GET /api/speech/player.js and exported for bundlers; importing it where there is no
 * DOM (server-side rendering) defines nothing.
 */
import { SpeechNarration } from './element';

export { SpeechNarration };

declare global {
  interface HTMLElementTagNameMap {
    'speech-narration': SpeechNarration;
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('speech-narration'))
  customElements.define('speech-narration', SpeechNarration);
