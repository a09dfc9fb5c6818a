import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import NodeID3 from 'node-id3';
import { id3v2TagLength } from './mp3-sniff';

/** IPTC's term for media a trained model made: the machine-readable mark of synthetic audio. */
export const DIGITAL_SOURCE_TYPE = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/** ID3's TLAN takes ISO 639-2 codes; a language not listed is left out rather than written wrong. */
const ISO_639_2: Record<string, string> = {
  ar: 'ara',
  de: 'deu',
  en: 'eng',
  es: 'spa',
  fa: 'fas',
  fr: 'fra',
  he: 'heb',
  hi: 'hin',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  ms: 'msa',
  nl: 'nld',
  pt: 'por',
  ru: 'rus',
  sw: 'swa',
  tr: 'tur',
  ur: 'urd',
  zh: 'zho',
};

export interface NarrationTags {
  title: string | null;
  /** A locale code (`ar`, `en-GB`). */
  language: string | null;
  /** The site. */
  artist: string | null;
}

export function narrationTag({ title, language, artist }: NarrationTags): Buffer {
  const code = language ? ISO_639_2[language.toLowerCase().split('-')[0]!] : undefined;
  return NodeID3.create({
    ...(title ? { title } : {}),
    ...(code ? { language: code } : {}),
    ...(artist ? { artist } : {}),
    userDefinedText: [{ description: 'DigitalSourceType', value: DIGITAL_SOURCE_TYPE }],
  });
}

/**
 * Puts the plugin's tag in front of the MP3 at `file`, in place of any ID3v2 tag it began with.
 * Answers how many bytes the audio frames moved (the new tag's length less the old one's).
 */
export async function tagMp3File(file: string, tags: NarrationTags): Promise<number> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(10);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const existing = id3v2TagLength(head);
  const oldTagBytes = typeof existing === 'number' ? existing : 0;
  const tag = narrationTag(tags);
  const tagged = `${file}.tagged`;
  const output = createWriteStream(tagged);
  output.write(tag);
  await pipeline(createReadStream(file, { start: oldTagBytes }), output);
  await fs.rename(tagged, file);
  return tag.length - oldTagBytes;
}
