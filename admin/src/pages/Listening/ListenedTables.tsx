import { NO_LOCALE_KEY, type ListenedArticle, type ListenedLocale } from '../../api/types';
import { ArticleLink, TableCard } from '../../components/FiguresTable';
import { articleKey, localeRows } from '../../utils/insights';
import { SERIES_MESSAGES } from '../../utils/usageFormat';
import { useTranslator } from '../../utils/useTranslator';
import { useListeningFormat } from './useListeningFormat';

/** The most played articles of the period, most first, each a link to its edit view. */
export const TopListened = ({ articles }: { articles: ListenedArticle[] }) => {
  const t = useTranslator();
  const { columns, cells } = useListeningFormat();
  return (
    <TableCard
      testId="speech-listening-top"
      title={t('listening.top.title', 'Most listened articles')}
      subtitle={t('listening.top.subtitle', 'The articles played most over these days (at most 20).')}
      empty={t('listening.top.empty', 'No article was played over these days.')}
      columns={[t('usage.top.article', 'Article'), ...columns]}
      bold={1}
      rows={articles.map((article) => ({
        key: articleKey(article),
        cells: [<ArticleLink key="article" article={article} />, ...cells(article)],
      }))}
    />
  );
};

/** The period by the narration's locale. */
export const LocaleTable = ({ locales }: { locales: ListenedLocale[] }) => {
  const t = useTranslator();
  const { columns, cells } = useListeningFormat();
  const { noLocale } = SERIES_MESSAGES;
  return (
    <TableCard
      testId="speech-listening-locales"
      title={t('listening.locales.title', 'By locale')}
      empty={t('listening.top.empty', 'No article was played over these days.')}
      columns={[t('usage.by.locale', 'Locale'), ...columns]}
      bold={1}
      rows={localeRows(locales).map((entry) => ({
        key: entry.locale,
        cells: [entry.locale === NO_LOCALE_KEY ? t(noLocale.id, noLocale.defaultMessage) : entry.locale, ...cells(entry)],
      }))}
    />
  );
};
