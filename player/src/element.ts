/**
 * `<speech-narration article-id="DOC_ID-en" api="https://cms.example">`: plays a narration the
 * plugin stored, with its transcript following the voice. It reads the public narration JSON
 * (GET /api/speech/narrations/:articleId), then the WebVTT subtitles and chapters it links to, and
 * asks nothing of anyone but that Strapi. Everything it shows lives in an open shadow root, each
 * piece with a `part` name, its colours and font from CSS custom properties (see the README).
 */
import { activeCueIndex, lastStartedIndex } from './cues';
import { aboutLine, changedMarks, shareLink, startTime } from './disclosure';
import { h } from './dom';
import type { Narration } from './narration';
import { EVENTS_PATH, Listening, type Sent } from './insights';
import { textDirection, uiLanguage } from './locale';
import { STRINGS, type PlayerStrings } from './strings';
import { STYLES } from './styles';
import { formatTime } from './time';
import { parseVtt, type Cue } from './vtt';

type Message = 'loading' | 'preparing' | 'failed' | 'missing' | 'error';

/** How often a narration in preparation is asked for again. */
const POLL_MS = 10_000;
const SKIP_SECONDS = 15;
/** Seek bar keys: arrows move this much, Page Up / Page Down a skip. */
const ARROW_SECONDS = 5;
const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

const REPLAY = 'M12 5V1L7 6l5 5V7c3.31 0 6 2.69 6 6s-2.69 6-6 6-6-2.69-6-6H4c0 4.42 3.58 8 8 8s8-3.58 8-8-3.58-8-8-8z';
const ICONS = {
  play: '<path d="M8 5v14l11-7z"/>',
  pause: '<path d="M6 5h4v14H6zm8 0h4v14h-4z"/>',
  back: `<path d="${REPLAY}"/>`,
  forward: `<path transform="matrix(-1 0 0 1 24 0)" d="${REPLAY}"/>`,
};
/** Static markup only: no narration data ever goes through innerHTML. */
const svg = (paths: string) => `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`;

/** The cues of a WebVTT file; none when it cannot be read (the audio still plays). */
async function readCues(url: string | null, signal: AbortSignal): Promise<Cue[]> {
  try {
    const response = url ? await fetch(url, { signal }) : null;
    return response?.ok ? parseVtt(await response.text()) : [];
  } catch {
    return [];
  }
}

/** Without a DOM (server-side rendering imports the module too) the class is defined but never used. */
const Element = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

export class SpeechNarration extends Element {
  static observedAttributes = ['article-id', 'api', 'lang', 'start'];

  #root = this.attachShadow({ mode: 'open' });
  #frame = h('div', { part: 'player', class: 'p', role: 'region' });
  #status = h('p', { part: 'status', class: 's', role: 'status' });
  #strings: PlayerStrings = STRINGS.en;
  #scheduled = false;
  #abort?: AbortController;
  #poll?: ReturnType<typeof setTimeout>;
  /** What the current narration put on screen, removed on the next load. */
  #body?: HTMLElement;
  #audio?: HTMLAudioElement;
  #narration?: Narration;
  #cues: Cue[] = [];
  #cueButtons: HTMLButtonElement[] = [];
  #chapters: Cue[] = [];
  #chapterButtons: HTMLButtonElement[] = [];
  #current = -1;
  #chapter = -1;
  #transcript?: HTMLOListElement;
  #play?: HTMLButtonElement;
  #seek?: HTMLInputElement;
  #time?: HTMLSpanElement;
  /** Strapi's origin, from the `api` attribute. */
  #api = '';
  /** Sends the heard seconds not sent yet of the current listening (the page is hidden or left). */
  #flush?: () => void;
  #leave = (event: Event) => {
    if (event.type === 'pagehide' || document.visibilityState === 'hidden') this.#flush?.();
  };

  constructor() {
    super();
    this.#root.innerHTML = `<style>${STYLES}</style>`;
    this.#frame.append(this.#status);
    this.#root.append(this.#frame);
  }

  connectedCallback() {
    addEventListener('pagehide', this.#leave);
    document.addEventListener('visibilitychange', this.#leave);
    this.#schedule();
  }

  disconnectedCallback() {
    removeEventListener('pagehide', this.#leave);
    document.removeEventListener('visibilitychange', this.#leave);
    this.#stop();
  }

  attributeChangedCallback(_name: string, previous: string | null, value: string | null) {
    if (previous !== value) this.#schedule();
  }

  /** One load for the attribute changes and the connection of one task (an upgrade brings all of them). */
  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#load();
    });
  }

  #stop() {
    this.#abort?.abort();
    clearTimeout(this.#poll);
    this.#audio?.pause();
  }

  #load() {
    this.#stop();
    this.#abort = new AbortController();
    this.#body?.remove();
    this.#body = this.#audio = this.#narration = undefined;
    this.#language(this.getAttribute('lang') || document.documentElement.lang);
    const articleId = this.getAttribute('article-id');
    if (!articleId) return this.#say('missing');
    this.#say('loading');
    const api = (this.#api = (this.getAttribute('api') || location.origin).replace(/\/+$/, ''));
    void this.#refresh(`${api}/api/speech/narrations/${encodeURIComponent(articleId)}`, this.#abort.signal);
  }

  /** Reads the narration JSON; while it is in preparation, again every POLL_MS. */
  async #refresh(url: string, signal: AbortSignal) {
    try {
      const response = await fetch(url, { signal });
      if (response.status === 404) return this.#say('missing');
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const narration = (await response.json()) as Narration;
      this.#language(this.getAttribute('lang') || narration.locale);
      if (narration.status === 'processing') {
        this.#say('preparing');
        this.#poll = setTimeout(() => this.#refresh(url, signal), POLL_MS);
        return;
      }
      if (!narration.audioUrl) return this.#say(narration.status === 'failed' ? 'failed' : 'missing');
      const [cues, chapters] = await Promise.all([readCues(narration.vttUrl, signal), readCues(narration.chaptersUrl, signal)]);
      if (signal.aborted) return;
      this.#render(narration, cues, chapters);
      this.#say();
    } catch {
      if (!signal.aborted) this.#say('error');
    }
  }

  /** The player's words and direction follow the `lang` attribute, else the narration's locale. */
  #language(locale: string | null) {
    this.#strings = STRINGS[uiLanguage(locale)];
    this.#frame.dir = textDirection(locale);
    this.#frame.lang = uiLanguage(locale);
    this.#frame.setAttribute('aria-label', this.#strings.player);
  }

  /** The status line (a polite live region); empty once the narration plays. */
  #say(message?: Message) {
    this.#sayText(message ? this.#strings[message] : '');
  }

  #sayText(text: string) {
    if (this.#status.textContent !== text) this.#status.textContent = text;
  }

  #button(part: string, label: string, content: string, className = '') {
    const button = h('button', { type: 'button', part: `button ${part}`, class: className, 'aria-label': label });
    button.innerHTML = content;
    return button;
  }

  #render(narration: Narration, cues: Cue[], chapters: Cue[]) {
    const strings = this.#strings;
    const audioUrl = narration.audioUrl!;
    this.#narration = narration;
    this.#cues = cues;
    this.#chapters = chapters;
    this.#current = this.#chapter = -1;

    const audio = (this.#audio = h('audio', { preload: 'metadata' }));
    audio.src = audioUrl;
    const start = startTime(this);
    if (start > 0) audio.addEventListener('loadedmetadata', () => this.#seekTo(start), { once: true });
    const play = (this.#play = this.#button('play', strings.play, svg(ICONS.play), 'pl'));
    const back = this.#button('back', strings.back, `${svg(ICONS.back)}<span aria-hidden="true">15</span>`);
    const forward = this.#button('forward', strings.forward, `${svg(ICONS.forward)}<span aria-hidden="true">15</span>`);
    const seek = (this.#seek = h('input', {
      part: 'seek',
      type: 'range',
      min: '0',
      max: '0',
      step: 'any',
      value: '0',
      'aria-label': strings.position,
    }));
    const time = (this.#time = h('span', { part: 'time', class: 'tm' }));
    const speed = h(
      'select',
      { part: 'speed', 'aria-label': strings.speed },
      // Isolated left to right, so an Arabic player shows 1.5× as in English, not ×1.5.
      ...SPEEDS.map((rate) => h('option', { value: `${rate}` }, `\u2066${rate}×\u2069`))
    );
    speed.value = '1';
    const download = h('a', { part: 'download', href: audioUrl, download: `${narration.articleId}.mp3` }, strings.download);

    play.onclick = () => (audio.paused ? audio.play().catch(() => undefined) : audio.pause());
    back.onclick = () => this.#seekTo(audio.currentTime - SKIP_SECONDS);
    forward.onclick = () => this.#seekTo(audio.currentTime + SKIP_SECONDS);
    seek.oninput = () => this.#seekTo(Number(seek.value));
    seek.onkeydown = (event) => {
      const steps: Record<string, number> = {
        ArrowRight: ARROW_SECONDS,
        ArrowUp: ARROW_SECONDS,
        ArrowLeft: -ARROW_SECONDS,
        ArrowDown: -ARROW_SECONDS,
        PageUp: SKIP_SECONDS,
        PageDown: -SKIP_SECONDS,
      };
      const target =
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? this.#duration()
            : event.key in steps
              ? audio.currentTime + steps[event.key]
              : null;
      if (target === null) return;
      event.preventDefault();
      this.#seekTo(target);
    };
    speed.onchange = () => (audio.playbackRate = audio.defaultPlaybackRate = Number(speed.value));
    download.onclick = (event) => {
      event.preventDefault();
      void this.#download(audioUrl, download.download);
    };
    for (const type of ['timeupdate', 'durationchange', 'seeked']) audio.addEventListener(type, () => this.#sync());
    for (const type of ['play', 'pause', 'ended']) audio.addEventListener(type, () => this.#paintPlay());
    // Listening insights: what one listening sends (insights.ts); a seek is not listening.
    const listening = new Listening();
    const url = `${this.#api}${EVENTS_PATH}`;
    const report = (sent: Sent[]) => this.#report(url, narration.articleId, sent);
    const on = (type: string, listener: () => unknown) => audio.addEventListener(type, listener);
    this.#flush = () => report(listening.flush());
    on('play', () => report(listening.play(audio.currentTime)));
    on('timeupdate', () =>
      audio.seeking ? listening.seek() : report(listening.step(audio.currentTime, this.#duration(), audio.playbackRate))
    );
    on('seeking', () => listening.seek());
    on('seeked', () => audio.paused || listening.at(audio.currentTime));
    // At the end the audio pauses before it ends: `end` carries those seconds.
    on('pause', () => audio.ended || report(listening.pause()));
    on('ended', () => report(listening.end()));

    const body = (this.#body = h('div', { part: 'body' }));
    if (narration.title) body.append(h('p', { part: 'title', class: 't' }, narration.title));
    const about = aboutLine(narration, this.#strings, this.#frame.lang);
    if (about.childNodes.length) body.append(about);
    // Media controls keep the direction of time (left to right) in a right-to-left page, as
    // players for Arabic and Hebrew do; the speed, the link and the text around them follow the page.
    body.append(
      h(
        'div',
        { part: 'controls', class: 'c' },
        h('div', { class: 'x', dir: 'ltr' }, play, back, forward, changedMarks(narration, seek), time),
        h('div', { class: 'y' }, speed, download, ...shareLink(narration, strings, (text) => this.#sayText(text)))
      ),
      audio
    );
    this.#chapterButtons = chapters.map((chapter) =>
      this.#jumpButton('chapter', chapter, h('span', { class: 'tm' }, formatTime(chapter.start)), chapter.text)
    );
    if (chapters.length)
      body.append(
        h(
          'nav',
          { part: 'chapters', 'aria-label': strings.chapters },
          h('ol', {}, ...this.#chapterButtons.map((button) => h('li', {}, button)))
        )
      );
    this.#cueButtons = cues.map((cue, index) => {
      const button = this.#jumpButton('cue', cue, cue.text);
      button.tabIndex = index ? -1 : 0;
      return button;
    });
    this.#transcript = undefined;
    if (cues.length) {
      const transcript = (this.#transcript = h('ol', { part: 'transcript', class: 'tr', 'aria-label': strings.transcript }));
      if (narration.locale) transcript.lang = narration.locale;
      transcript.append(...this.#cueButtons.map((button) => h('li', {}, button)));
      transcript.onkeydown = (event) => this.#moveInTranscript(event);
      body.append(transcript);
    }
    this.#frame.append(body);
    this.#paintPlay();
    this.#sync();
  }

  /**
   * One request per event, a JSON text: `sendBeacon` (text/plain, no CORS preflight), else a
   * `no-cors` fetch without credentials. Nothing at all with Global Privacy Control or `no-insights`.
   */
  #report(url: string, articleId: string, sent: Sent[]) {
    if ((navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true || this.hasAttribute('no-insights')) return;
    for (const event of sent) {
      const body = JSON.stringify({ articleId, ...event });
      if (!navigator.sendBeacon?.(url, body))
        fetch(url, { method: 'POST', body, keepalive: true, mode: 'no-cors', credentials: 'omit' }).catch(() => undefined);
    }
  }

  /** A transcript cue or a chapter: a click, Enter or Space goes to its start. */
  #jumpButton(part: string, cue: Cue, ...content: Array<Node | string>) {
    const button = h('button', { type: 'button', part }, ...content);
    button.onclick = () => this.#seekTo(cue.start);
    return button;
  }

  /** One tab stop for the whole transcript; the arrow keys, Home and End move between cues. */
  #moveInTranscript(event: KeyboardEvent) {
    const buttons = this.#cueButtons;
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: buttons.length - 1 };
    if (index < 0 || !(event.key in moves)) return;
    event.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, moves[event.key]))];
    this.#rove(next);
    next.focus();
  }

  #rove(button: HTMLButtonElement) {
    for (const other of this.#cueButtons) other.tabIndex = other === button ? 0 : -1;
  }

  #duration() {
    const duration = this.#audio?.duration ?? NaN;
    return Number.isFinite(duration) ? duration : (this.#narration?.durationSeconds ?? 0);
  }

  #seekTo(seconds: number) {
    const audio = this.#audio;
    if (!audio) return;
    audio.currentTime = Math.max(0, Math.min(seconds, this.#duration() || seconds));
    this.#sync();
  }

  #paintPlay() {
    const play = this.#play!;
    const playing = !this.#audio!.paused;
    play.innerHTML = svg(playing ? ICONS.pause : ICONS.play);
    play.setAttribute('aria-label', playing ? this.#strings.pause : this.#strings.play);
  }

  /** Time, seek bar, highlighted cue and chapter, from the audio's current time. */
  #sync() {
    const now = this.#audio!.currentTime;
    const duration = this.#duration();
    const seek = this.#seek!;
    seek.max = `${duration}`;
    seek.value = `${now}`;
    seek.setAttribute('aria-valuetext', `${formatTime(now)} ${this.#strings.of} ${formatTime(duration)}`);
    this.#time!.textContent = `${formatTime(now)} / ${formatTime(duration)}`;

    const chapter = lastStartedIndex(this.#chapters, now);
    if (chapter !== this.#chapter) {
      this.#chapterButtons[this.#chapter]?.removeAttribute('aria-current');
      this.#chapterButtons[chapter]?.setAttribute('aria-current', 'true');
      this.#chapter = chapter;
    }
    const current = activeCueIndex(this.#cues, now);
    if (current === this.#current) return;
    this.#cueButtons[this.#current]?.removeAttribute('aria-current');
    this.#current = current;
    const cue = this.#cueButtons[current];
    if (!cue) return;
    cue.setAttribute('aria-current', 'true');
    const transcript = this.#transcript!;
    // The tab stop follows the voice, unless the listener is moving through the transcript.
    if (!transcript.contains(this.#root.activeElement)) this.#rove(cue);
    // Scrolls the transcript box only: scrollIntoView would scroll the page as well.
    const top = cue.offsetTop;
    if (top < transcript.scrollTop || top + cue.offsetHeight > transcript.scrollTop + transcript.clientHeight) {
      const behavior = matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
      transcript.scrollTo({ top: top - transcript.clientHeight / 3, behavior });
    }
  }

  /** Cross-origin links ignore `download`: the file is fetched (CORS) and saved; failing that, opened. */
  async #download(url: string, name: string) {
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const file = URL.createObjectURL(await response.blob());
      h('a', { href: file, download: name }).click();
      setTimeout(() => URL.revokeObjectURL(file), 60_000);
    } catch {
      open(url, '_blank', 'noopener');
    }
  }
}
