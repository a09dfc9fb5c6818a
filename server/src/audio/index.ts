/** MP3 frames, duration, sniffing and joining. */
export { joinMp3, mp3FileSource, type Mp3PartSource } from './mp3-join';
export { Mp3Sniffer, type Mp3Verdict } from './mp3-sniff';
export { isoDuration, Mp3DurationReader } from './mp3';
export { narrationTag, tagMp3File, type NarrationTags } from './id3-tag';
