import * as React from 'react';
import { Flex } from '@strapi/design-system';
import { Layouts, Page, useAuth } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { useSpeechQuery } from '../../api/hooks';
import type { TokenSource } from '../../api/transcriptions';
import type { TranscriptionDetail, TranscriptionView } from '../../api/types';
import { PERMISSIONS } from '../../permissions';
import { getTranslation } from '../../utils/getTranslation';
import { JobCard } from './JobCard';
import { RecentTable } from './RecentTable';
import { UploadCard } from './UploadCard';
import { isTranscriptionInProgress } from './utils';

/** The admin token for the upload (XMLHttpRequest) and downloads (fetch), kept fresh after a refresh. */
function useTokenSource(): TokenSource {
  const token = useAuth('TranscribePage', (state) => state.token);
  const ref = React.useRef<string | null>(token);
  ref.current = token ?? ref.current;
  return React.useMemo(() => ({ get: () => ref.current, set: (next: string | null) => void (ref.current = next) }), []);
}

const TranscribePage = () => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string) => formatMessage({ id: getTranslation(id), defaultMessage });
  const tokens = useTokenSource();
  const [searchParams, setSearchParams] = useSearchParams();
  const selected = Number(searchParams.get('id')) || null;

  const recent = useSpeechQuery((speech) => speech.listTranscriptions(20), [], {
    // While one of the listed jobs is in progress, the list follows it too.
    pollMs: (data) => (data?.data.some((row) => isTranscriptionInProgress(row.status)) ? 5_000 : null),
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

  const onSubmitted = (job: TranscriptionView) => {
    recent.setData((current) => (current ? { ...current, data: [job, ...current.data.filter((row) => row.id !== job.id)] } : current));
    open(job.id);
  };

  // The open job's status also updates its row in the list.
  const onJobChange = React.useCallback(
    (job: TranscriptionDetail) => {
      const { result: _result, ...view } = job;
      recent.setData((current) => {
        if (!current) return current;
        const known = current.data.some((row) => row.id === view.id);
        return { ...current, data: known ? current.data.map((row) => (row.id === view.id ? view : row)) : current.data };
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [recent.setData]
  );

  return (
    <Page.Main>
      <Page.Title>{t('transcribe.title', 'Transcribe')}</Page.Title>
      <Layouts.Header title={t('transcribe.title', 'Transcribe')} subtitle={t('transcribe.subtitle', 'Turn a recording into a timed transcript with the speech service.')} />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <UploadCard tokens={tokens} onSubmitted={onSubmitted} />
          {selected ? <JobCard key={selected} id={selected} tokens={tokens} serverPollMs={recent.data?.meta.pollIntervalMs} onChange={onJobChange} /> : null}
          <RecentTable rows={recent.data?.data} loading={recent.loading} error={recent.error} selectedId={selected} onOpen={open} onReload={() => void recent.reload()} />
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
