import { MAX_FILE_NAME_LENGTH, safeFileName, splitExtension } from '../../../server/src/utils/safe-file-name';

/** What Strapi's upload service accepts as a file name (its isValidFilename, copied from valid-filename). */
function strapiAccepts(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    // eslint-disable-next-line no-control-regex -- control characters are what Strapi refuses
    !/[<>:"/\\|?*\u0000-\u001F]/.test(name) &&
    !/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(name) &&
    name !== '.' &&
    name !== '..'
  );
}

describe('safeFileName', () => {
  it('turns the name from issue 9 into a plain base name', () => {
    const safe = safeFileName('../../../etc/<img src=x onerror=alert(1)>.mp3');
    expect(safe).toBe('img src=x onerror=alert(1).mp3');
    expect(strapiAccepts(safe)).toBe(true);
  });

  it.each([
    ['interview.mp3', 'interview.mp3'],
    ['مقابلة الوزير.wav', 'مقابلة الوزير.wav'],
    ['C:\\Users\\me\\Desktop\\rec 1.m4a', 'rec 1.m4a'],
    ['/var/tmp/x.ogg', 'x.ogg'],
    ['  spaced\t\tout   name  .mp3 ', 'spaced out name.mp3'],
    ['a"b|c?d*e:f.mp3', 'abcdef.mp3'],
    ['line\r\nbreak\u0000.mp3', 'line break.mp3'],
    ['evil\u202Egpj.exe', 'evilgpj.exe'],
    ['...hidden.mp3', 'hidden.mp3'],
    ['trailing dots...', 'trailing dots'],
    ['interview.final.mp3', 'interview.final.mp3'],
    ['no-extension', 'no-extension'],
  ])('%j becomes %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  it.each([[''], ['   '], ['..'], ['../..'], ['<>'], ['dir/'], [null], [undefined], [42]])('falls back for %j', (raw) => {
    expect(safeFileName(raw)).toBe('recording.mp3');
  });

  it('keeps the extension when only the stem is unusable', () => {
    expect(safeFileName('.wav')).toBe('recording.wav');
    expect(safeFileName('<<>>.m4a')).toBe('recording.m4a');
    expect(safeFileName('CON.mp3')).toBe('recording.mp3');
    expect(safeFileName('nul', 'transcription.srt')).toBe('transcription.srt');
  });

  it('caps the length by cutting the stem and keeping the extension, never inside a character', () => {
    const long = safeFileName(`${'ب'.repeat(300)}.mp3`);
    expect(Array.from(long)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(long.endsWith('.mp3')).toBe(true);
    const emoji = safeFileName(`${'🎙'.repeat(200)}.wav`, undefined, 20);
    expect(emoji).toBe(`${'🎙'.repeat(16)}.wav`);
    // No lone surrogate: the text survives a round trip through UTF-8.
    expect(Buffer.from(emoji, 'utf8').toString('utf8')).toBe(emoji);
  });

  it('always gives a name Strapi accepts', () => {
    const nasty = [
      '../../x',
      'a\\b/c<d>.mp3',
      '\u0001\u0002',
      'com1',
      'lpt9.txt',
      '"quoted".mp3',
      'x'.repeat(1000),
      '%22.mp3',
      '.',
      '....mp3',
    ];
    for (const raw of nasty) expect(strapiAccepts(safeFileName(raw))).toBe(true);
  });
});

describe('splitExtension', () => {
  it('splits the last short extension off', () => {
    expect(splitExtension('a.tar.gz')).toEqual({ stem: 'a.tar', extension: '.gz' });
    expect(splitExtension('.mp3')).toEqual({ stem: '', extension: '.mp3' });
    expect(splitExtension('readme')).toEqual({ stem: 'readme', extension: '' });
    expect(splitExtension('x.not an extension')).toEqual({ stem: 'x.not an extension', extension: '' });
  });
});
