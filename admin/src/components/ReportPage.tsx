import * as React from 'react';
import { Button, Flex } from '@strapi/design-system';
import { Download } from '@strapi/icons';
import { Layouts, Page, useFetchClient, useNotification, type FetchClient } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../api/errors';
import { saveBlob } from '../api/transcriptionFiles';
import { textDirection } from '../utils/textDirection';
import { useTranslator } from '../utils/useTranslator';

interface Props {
  title: string;
  subtitle: string;
  /** Still loading its first answer: the admin's page loader. */
  loading: boolean;
  /** No answer to show: the error and "Try again". */
  failed: { message?: string; retry: () => void } | null;
  /** The header's CSV export, fetched with the admin's token. */
  exportCsv: { label: string; testId: string; download: (client: FetchClient) => Promise<{ blob: Blob; fileName: string }> };
  testId: string;
  children: React.ReactNode;
}

/**
 * A settings page of figures (Speech usage, Speech listening): its header with a CSV export, the
 * loader, the error with "Try again", and its cards in the admin's direction (Arabic right to
 * left; Strapi's frame stays as it is).
 */
export const ReportPage = ({ title, subtitle, loading, failed, exportCsv, testId, children }: Props) => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { toggleNotification } = useNotification();
  const client = useFetchClient();
  const [exporting, setExporting] = React.useState(false);

  const runExport = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await exportCsv.download(client);
      saveBlob(blob, fileName);
    } catch (caught) {
      toggleNotification({ type: 'danger', message: toProblem(caught).message });
    } finally {
      setExporting(false);
    }
  };

  if (loading) return <Page.Loading />;
  return (
    <Page.Main>
      <Page.Title>{title}</Page.Title>
      <Layouts.Header
        title={title}
        subtitle={failed ? undefined : subtitle}
        primaryAction={
          failed ? undefined : (
            <Button
              startIcon={<Download />}
              variant="secondary"
              loading={exporting}
              onClick={() => void runExport()}
              data-testid={exportCsv.testId}
            >
              {exportCsv.label}
            </Button>
          )
        }
      />
      <Layouts.Content>
        {failed ? (
          <Page.Error content={failed.message} action={<Button onClick={failed.retry}>{t('common.retry', 'Try again')}</Button>} />
        ) : (
          <Flex direction="column" alignItems="stretch" gap={6} dir={textDirection(locale)} data-testid={testId}>
            {children}
          </Flex>
        )}
      </Layouts.Content>
    </Page.Main>
  );
};
