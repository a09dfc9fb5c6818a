import { useIntl } from 'react-intl';
import type { TopArticle } from '../../api/types';
import { ArticleLink, TableCard } from '../../components/FiguresTable';
import { articleKey } from '../../utils/insights';
import { useTranslator } from '../../utils/useTranslator';

/** The month's most expensive articles, most first, each a link to its edit view. */
export const TopArticles = ({ articles, typeName }: { articles: TopArticle[]; typeName: (uid: string) => string }) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  return (
    <TableCard
      testId="speech-usage-top"
      title={t('usage.top.title', 'The month’s most expensive articles')}
      subtitle={t('usage.top.subtitle', 'Credits each article cost this month, refunds deducted.')}
      empty={t('usage.top.empty', 'No article has cost credits this month.')}
      columns={[
        t('usage.top.article', 'Article'),
        t('usage.top.type', 'Content type'),
        t('usage.top.credits', 'Credits'),
        t('usage.top.entries', 'Requests'),
      ]}
      bold={2}
      rows={articles.map((article) => ({
        key: articleKey(article),
        cells: [
          <ArticleLink key="article" article={article} />,
          typeName(article.contentType),
          formatNumber(article.credits),
          formatNumber(article.entries),
        ],
      }))}
    />
  );
};
