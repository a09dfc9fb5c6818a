import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { MediaRef } from '../api/types';
import { getTranslation } from '../utils/getTranslation';
import { isCrossOrigin, mediaUrl, srtToVtt } from '../utils/media';

interface Props {
  audio: MediaRef;
  subtitlesVtt: MediaRef | null;
  subtitles: MediaRef | null;
  locale: string | null;
  /** The audio element, for a caller that plays from a time (the verification's places). */
  audioRef?: React.RefObject<HTMLAudioElement>;
}

/** Builds a VTT URL from the SRT when only the SRT is stored. */
function useVttSource(subtitlesVtt: MediaRef | null, subtitles: MediaRef | null): string | null {
  const [fromSrt, setFromSrt] = React.useState<string | null>(null);
  const srtUrl = !subtitlesVtt && subtitles ? mediaUrl(subtitles.url) : null;
  React.useEffect(() => {
    if (!srtUrl) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(srtUrl)
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((text) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(new Blob([srtToVtt(text)], { type: 'text/vtt' }));
        setFromSrt(objectUrl);
      })
      .catch(() => setFromSrt(null));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [srtUrl]);
  return subtitlesVtt ? mediaUrl(subtitlesVtt.url) : fromSrt;
}

/** The stored MP3 with its subtitles; the line being spoken is shown under the player. */
export const NarrationPlayer = ({ audio, subtitlesVtt, subtitles, locale, audioRef: givenRef }: Props) => {
  const { formatMessage } = useIntl();
  const ownRef = React.useRef<HTMLAudioElement>(null);
  const audioRef = givenRef ?? ownRef;
  const [line, setLine] = React.useState('');
  const [failed, setFailed] = React.useState(false);
  const src = mediaUrl(audio.url);
  const vtt = useVttSource(subtitlesVtt, subtitles);
  const crossOrigin = isCrossOrigin(src) || (vtt ? isCrossOrigin(vtt) : false) ? 'anonymous' : undefined;

  React.useEffect(() => {
    const element = audioRef.current;
    if (!element) return;
    const tracks = element.textTracks;
    const attach = () => {
      const track = tracks[0];
      if (!track) return undefined;
      // Audio elements draw no captions: keep the cues active and draw the line ourselves.
      track.mode = 'hidden';
      const onCueChange = () => {
        const cues = track.activeCues ? Array.from(track.activeCues) : [];
        setLine(cues.map((cue) => (cue as VTTCue).text).join(' '));
      };
      track.addEventListener('cuechange', onCueChange);
      return () => track.removeEventListener('cuechange', onCueChange);
    };
    let detach = attach();
    const onAddTrack = () => {
      detach?.();
      detach = attach();
    };
    tracks.addEventListener('addtrack', onAddTrack);
    return () => {
      detach?.();
      tracks.removeEventListener('addtrack', onAddTrack);
    };
  }, [vtt, audioRef]);

  return (
    <Flex direction="column" alignItems="stretch" gap={2}>
      <audio
        ref={audioRef}
        controls
        preload="metadata"
        src={src}
        crossOrigin={crossOrigin}
        data-testid="speech-audio"
        style={{ width: '100%' }}
        onError={() => setFailed(true)}
      >
        {vtt ? (
          <track
            kind="subtitles"
            src={vtt}
            srcLang={locale ?? 'en'}
            label={formatMessage({ id: getTranslation('player.subtitles'), defaultMessage: 'Subtitles' })}
            default
          />
        ) : null}
      </audio>
      {failed ? (
        <Typography variant="pi" textColor="danger600">
          {formatMessage({ id: getTranslation('player.error'), defaultMessage: 'The audio file could not be loaded.' })}
        </Typography>
      ) : null}
      <Box background="neutral100" hasRadius padding={2} minHeight="3.2rem" aria-live="polite" data-testid="speech-subtitle-line">
        <Typography variant="omega" textColor={line ? 'neutral800' : 'neutral500'}>
          {line ||
            (vtt
              ? formatMessage({
                  id: getTranslation('player.subtitlesIdle'),
                  defaultMessage: 'Subtitles appear here while the narration plays.',
                })
              : formatMessage({ id: getTranslation('player.noSubtitles'), defaultMessage: 'No subtitles for this narration.' }))}
        </Typography>
      </Box>
    </Flex>
  );
};
