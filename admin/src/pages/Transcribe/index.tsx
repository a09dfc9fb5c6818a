import * as React from 'react';
import { Flex } from '@strapi/design-system';
import { Layouts, Page } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { RECENT_TRANSCRIPTIONS } from '../../api/endpoints';
import { problemOf } from '../../api/errors';
import { speechApi } from '../../api/speechApi';
import { PERMISSIONS } from '../../utils/permissions';
import { getTranslation } from '../../utils/getTranslation';
import { JobCard } from './JobCard';
import { RecentTable } from './RecentTable';
import { UploadCard } from './UploadCard';
import { isTranscriptionInProgress } from './utils';

const TranscribePage = () => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string) => formatMessage({ id: getTranslation(id), defaultMessage });
  const [searchParams, setSearchParams] = useSearchParams();
  const selected = Number(searchParams.get('id')) || null;

  const recentState = speechApi.endpoints.getSpeechTranscriptions.useQueryState(RECENT_TRANSCRIPTIONS);
  // While one of the listed jobs is in progress, the list follows it too.
  const { refetch: reloadRecent } = speechApi.endpoints.getSpeechTranscriptions.useQuerySubscription(RECENT_TRANSCRIPTIONS, {
    refetchOnMountOrArgChange: true,
    pollingInterval: recentState.data?.data.some((row) => isTranscriptionInProgress(row.status)) ? 5_000 : 0,
  });

  const open = React.useCallback(
    (id: number) =>
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        next.set('id', String(id));
        return next;
      }),
    [setSearchParams]
  );

  // The new job is in the list the server answers now; the open job keeps its row current itself
  // (see getSpeechTranscription in endpoints.ts).
  const onSubmitted = (id: number) => {
    void reloadRecent();
    open(id);
  };

  return (
    <Page.Main>
      <Page.Title>{t('transcribe.title', 'Transcribe')}</Page.Title>
      <Layouts.Header
        title={t('transcribe.title', 'Transcribe')}
        subtitle={t('transcribe.subtitle', 'Turn a recording into a timed transcript with the speech service.')}
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <UploadCard onSubmitted={(job) => onSubmitted(job.id)} />
          {selected ? <JobCard key={selected} id={selected} serverPollMs={recentState.data?.meta.pollIntervalMs} /> : null}
          <RecentTable
            rows={recentState.data?.data}
            loading={recentState.isLoading || recentState.isUninitialized}
            error={problemOf(recentState.error)}
            selectedId={selected}
            onOpen={open}
            onReload={() => void reloadRecent()}
          />
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};

const ProtectedTranscribePage = () => (
  <Page.Protect permissions={PERMISSIONS.transcribe}>
    <TranscribePage />
  </Page.Protect>
);

export default ProtectedTranscribePage;
