import { Typography } from '@strapi/design-system';
import type { ListenedArticle, ListenedLocale } from '../../api/types';
import { Card } from '../../components/Card';
import { ArticleLink, FiguresTable } from '../../components/FiguresTable';
import { articleKey, localeRows } from '../../utils/insights';
import { SERIES_MESSAGES } from '../../utils/usageFormat';
import { useTranslator } from '../../utils/useTranslator';
import { useListeningFormat } from './useListeningFormat';

/** The most played articles of the period, most first, each a link to its edit view. */
export const TopListened = ({ articles }: { articles: ListenedArticle[] }) => {
  const t = useTranslator();
  const { row } = useListeningFormat();
  return (
    <Card
      testId="speech-listening-top"
      title={t('listening.top.title', 'Most listened articles')}
      subtitle={t('listening.top.subtitle', 'The articles played most over these days (at most 20).')}
    >
      {articles.length === 0 ? (
        <Typography textColor="neutral600">{t('listening.top.empty', 'No article was played over these days.')}</Typography>
      ) : (
        <FiguresTable
          columns={[
            t('usage.top.article', 'Article'),
            t('listening.plays', 'Plays'),
            t('listening.listeners', 'Listeners'),
            t('listening.finished', 'Finished'),
            t('listening.downloadsShort', 'Feed downloads'),
          ]}
          bold={1}
          rows={articles.map((article) => {
            const figures = row(article);
            return {
              key: articleKey(article),
              cells: [<ArticleLink key="article" article={article} />, figures.plays, figures.listeners, figures.finished, figures.downloads],
            };
          })}
        />
      )}
    </Card>
  );
};

/** The period by the narration's locale. */
export const LocaleTable = ({ locales }: { locales: ListenedLocale[] }) => {
  const t = useTranslator();
  const { row } = useListeningFormat();
  const rows = localeRows(locales);
  return (
    <Card testId="speech-listening-locales" title={t('listening.locales.title', 'By locale')}>
      {rows.length === 0 ? (
        <Typography textColor="neutral600">{t('listening.top.empty', 'No article was played over these days.')}</Typography>
      ) : (
        <FiguresTable
          columns={[
            t('usage.by.locale', 'Locale'),
            t('listening.plays', 'Plays'),
            t('listening.listeners', 'Listeners'),
            t('listening.finished', 'Finished'),
            t('listening.heard', 'Time heard'),
            t('listening.downloadsShort', 'Feed downloads'),
          ]}
          bold={1}
          rows={rows.map((entry) => {
            const figures = row(entry);
            const name =
              entry.locale === 'none' ? t(SERIES_MESSAGES.noLocale.id, SERIES_MESSAGES.noLocale.defaultMessage) : entry.locale;
            return {
              key: entry.locale,
              cells: [
                <Typography key="locale">{name}</Typography>,
                figures.plays,
                figures.listeners,
                figures.finished,
                figures.heard,
                figures.downloads,
              ],
            };
          })}
        />
      )}
    </Card>
  );
};
