import { Flex, Typography } from '@strapi/design-system';
import { Widget } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useGetSpeechInsightsQuery } from '../api/speechApi';
import { articleKey, mostListened } from '../utils/insights';
import { textDirection } from '../utils/textDirection';
import { useTranslator } from '../utils/useTranslator';
import { ArticleLink } from './FiguresTable';

/** How often the home page refreshes the figures while it stays open. */
const REFRESH_MS = 60_000;
const WEEK = 7;

/**
 * The home page widget "Most listened this week" (registered in index.ts for every admin): the
 * five most played articles of the last 7 days. The server counts only the articles the admin
 * may read in the Content Manager.
 */
const ListeningWidget = () => {
  const t = useTranslator();
  const { locale } = useIntl();
  const { data, isLoading, isError } = useGetSpeechInsightsQuery(WEEK, { pollingInterval: REFRESH_MS, refetchOnMountOrArgChange: true });
  if (isLoading) return <Widget.Loading />;
  if (isError || !data) return <Widget.Error />;
  const articles = mostListened(data.topArticles);
  return (
    <Flex direction="column" alignItems="stretch" gap={2} width="100%" dir={textDirection(locale)} data-testid="speech-listening-widget">
      {articles.length === 0 ? (
        <Typography variant="pi" textColor="neutral600" data-testid="speech-listening-widget-empty">
          {t('listeningWidget.empty', 'No narration was played this week.')}
        </Typography>
      ) : (
        <Flex direction="column" alignItems="stretch" gap={2} tag="ol">
          {articles.map((article) => (
            <Flex key={articleKey(article)} tag="li" justifyContent="space-between" gap={2}>
              <Typography variant="omega" ellipsis>
                <ArticleLink article={article} />
              </Typography>
              <Typography variant="pi" textColor="neutral600" style={{ whiteSpace: 'nowrap' }}>
                {t('listening.playsCount', '{count, plural, one {# play} other {# plays}}', { count: article.plays })}
              </Typography>
            </Flex>
          ))}
        </Flex>
      )}
    </Flex>
  );
};

export default ListeningWidget;
