/** SRT and WebVTT, chapters, transcripts. */
export { type Chapter, chaptersFromCues, chaptersToJson, chaptersToVtt, type TextHeading } from './chapters';
export { joinCues, partCues } from './join';
export { type Cue, formatSrt, formatVtt, narrationDuration, parseSrt, srtToVtt } from './srt';
export {
  DOWNLOAD_TYPES,
  type DownloadFormat,
  isReadableSubtitles,
  renderTranscript,
  segmentsFromSubtitles,
  transcriptView,
} from './transcript';
