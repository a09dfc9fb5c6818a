import { createHash, createHmac } from 'crypto';
import { execFileSync } from 'child_process';

import { callbackSigningKey, signCallback, verifyCallbackSignature } from '../../../server/src/speech-client/signature';

/**
 * Expected values are computed here from the recipe of spec section 5.4, with Node's crypto used
 * directly (and once with openssl), never with the module under test.
 */
function expectedSignature(apiKey: string, articleId: string, audioFile: string | null, srtFile: string | null): string {
  const key = createHash('sha256').update(apiKey, 'utf8').digest('hex');
  const message = [articleId, audioFile === null ? 'null' : audioFile, srtFile === null ? 'null' : srtFile].join('|');
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(message, 'utf8')).digest('hex');
}

const API_KEY = 'sk_live_3f9a7c1e-test-key';
const AUDIO = 'https://cdn.example.com/audio/article-42.mp3';
const SRT = 'https://cdn.example.com/audio/article-42.srt';

describe('callbackSigningKey', () => {
  it('is the lowercase hex SHA-256 of the key', () => {
    expect(callbackSigningKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(callbackSigningKey(API_KEY)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('signCallback', () => {
  const cases: Array<[string, string | null, string | null]> = [
    ['article-42', AUDIO, SRT],
    ['article-42', null, null],
    ['article-42', AUDIO, null],
    ['مقال-٤٢', AUDIO, SRT],
    ['記事/42 ✓', null, null],
    ['', '', ''],
    ['a|b', 'x|y', 'z'],
  ];

  it.each(cases)('matches the recipe for %j %j %j', (articleId, audio, srt) => {
    expect(signCallback(API_KEY, articleId, audio, srt)).toBe(expectedSignature(API_KEY, articleId, audio, srt));
  });

  it('writes a null file as the text "null"', () => {
    expect(signCallback(API_KEY, 'a', null, null)).toBe(signCallback(API_KEY, 'a', 'null', 'null'));
  });

  it('uses the hex digest as a text key, not as raw bytes', () => {
    const rawBytesKey = createHash('sha256').update(API_KEY).digest();
    const wrong = createHmac('sha256', rawBytesKey).update(`a|${AUDIO}|${SRT}`).digest('hex');
    expect(signCallback(API_KEY, 'a', AUDIO, SRT)).not.toBe(wrong);
  });

  it('agrees with openssl', () => {
    let opensslOutput: string;
    try {
      const key = createHash('sha256').update(API_KEY).digest('hex');
      opensslOutput = execFileSync('openssl', ['dgst', '-sha256', '-hmac', key], {
        input: `article-42|${AUDIO}|null`,
      }).toString();
    } catch {
      return; // openssl not installed: the Node vectors above still stand.
    }
    const hex = /([0-9a-f]{64})\s*$/.exec(opensslOutput.trim())?.[1];
    expect(signCallback(API_KEY, 'article-42', AUDIO, null)).toBe(hex);
  });
});

describe('verifyCallbackSignature', () => {
  const valid = { articleId: 'مقال-٤٢', audioFile: AUDIO, srtFile: SRT, signature: expectedSignature(API_KEY, 'مقال-٤٢', AUDIO, SRT) };

  it('accepts the right signature, with files or with nulls', () => {
    expect(verifyCallbackSignature(API_KEY, valid)).toBe(true);
    const failed = { articleId: 'x', audioFile: null, srtFile: null, signature: expectedSignature(API_KEY, 'x', null, null) };
    expect(verifyCallbackSignature(API_KEY, failed)).toBe(true);
  });

  it('rejects a signature made with another key', () => {
    const forged = { ...valid, signature: expectedSignature('another-key', valid.articleId, AUDIO, SRT) };
    expect(verifyCallbackSignature(API_KEY, forged)).toBe(false);
  });

  it('rejects a signature over other fields (swapped files, other article, null instead of URL)', () => {
    expect(verifyCallbackSignature(API_KEY, { ...valid, audioFile: SRT, srtFile: AUDIO })).toBe(false);
    expect(verifyCallbackSignature(API_KEY, { ...valid, articleId: 'article-43' })).toBe(false);
    expect(verifyCallbackSignature(API_KEY, { ...valid, srtFile: null })).toBe(false);
  });

  it('rejects a forged signature with one character changed', () => {
    const last = valid.signature.slice(-1);
    const forged = valid.signature.slice(0, -1) + (last === '0' ? '1' : '0');
    expect(verifyCallbackSignature(API_KEY, { ...valid, signature: forged })).toBe(false);
  });

  it('rejects truncated, extended, empty, uppercase and non-hex signatures without throwing', () => {
    const bad = [
      valid.signature.slice(0, 63),
      valid.signature.slice(0, 32),
      `${valid.signature}0`,
      '',
      valid.signature.toUpperCase(),
      `${valid.signature.slice(0, 62)}zz`,
      'g'.repeat(64),
      '€'.repeat(64),
      ' '.repeat(64),
    ];
    for (const signature of bad) {
      expect(() => verifyCallbackSignature(API_KEY, { ...valid, signature })).not.toThrow();
      expect(verifyCallbackSignature(API_KEY, { ...valid, signature })).toBe(false);
    }
  });

  it('answers false for input that is not a string at all', () => {
    const junk: unknown[] = [undefined, null, 42, { toString: () => valid.signature }, [valid.signature]];
    for (const signature of junk) {
      expect(verifyCallbackSignature(API_KEY, { ...valid, signature } as never)).toBe(false);
    }
    expect(verifyCallbackSignature(API_KEY, { ...valid, articleId: 42 } as never)).toBe(false);
    expect(verifyCallbackSignature(API_KEY, { ...valid, audioFile: 1 } as never)).toBe(false);
    expect(verifyCallbackSignature('', valid)).toBe(false);
  });
});
