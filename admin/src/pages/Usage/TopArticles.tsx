import { Link, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { NavLink } from 'react-router-dom';
import type { TopArticle } from '../../api/types';
import { Card } from '../../components/Card';
import { useTranslator } from '../../utils/useTranslator';

/** The entry in the Content Manager, in its locale. */
const editViewPath = (article: TopArticle) =>
  `/content-manager/collection-types/${encodeURIComponent(article.contentType)}/${encodeURIComponent(article.documentId)}${
    article.locale ? `?plugins[i18n][locale]=${encodeURIComponent(article.locale)}` : ''
  }`;

/** The month's most expensive articles, most first, each a link to its edit view. */
export const TopArticles = ({ articles, typeName }: { articles: TopArticle[]; typeName: (uid: string) => string }) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  return (
    <Card
      testId="speech-usage-top"
      title={t('usage.top.title', 'The month’s most expensive articles')}
      subtitle={t('usage.top.subtitle', 'Credits each article cost this month, refunds deducted.')}
    >
      {articles.length === 0 ? (
        <Typography textColor="neutral600">{t('usage.top.empty', 'No article has cost credits this month.')}</Typography>
      ) : (
        <Table colCount={4} rowCount={articles.length + 1}>
          <Thead>
            <Tr>
              <Th>
                <Typography variant="sigma">{t('usage.top.article', 'Article')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('usage.top.type', 'Content type')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('usage.top.credits', 'Credits')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('usage.top.entries', 'Requests')}</Typography>
              </Th>
            </Tr>
          </Thead>
          <Tbody>
            {articles.map((article) => (
              <Tr key={`${article.contentType}|${article.documentId}|${article.locale ?? ''}`}>
                <Td style={{ whiteSpace: 'normal' }}>
                  <Link tag={NavLink} to={editViewPath(article)}>
                    {/* A title in another script keeps its own direction inside the row. */}
                    <bdi>{article.title || article.documentId}</bdi>
                  </Link>
                  {article.locale ? (
                    <Typography variant="pi" textColor="neutral600">
                      {' '}
                      ({article.locale})
                    </Typography>
                  ) : null}
                </Td>
                <Td>
                  <Typography>{typeName(article.contentType)}</Typography>
                </Td>
                <Td>
                  <Typography fontWeight="bold">{formatNumber(article.credits)}</Typography>
                </Td>
                <Td>
                  <Typography>{formatNumber(article.entries)}</Typography>
                </Td>
              </Tr>
            ))}
          </Tbody>
        </Table>
      )}
    </Card>
  );
};
