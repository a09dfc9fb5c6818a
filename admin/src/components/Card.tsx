import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { textDirection } from '../utils/textDirection';

/**
 * A titled white card, like the admin's own settings sections. Its text runs in the direction of
 * the admin's language (Arabic right to left) while Strapi's own page stays left to right.
 */
export const Card = ({
  title,
  subtitle,
  children,
  testId,
  action,
}: {
  title: string;
  subtitle?: string;
  children: React.ReactNode;
  testId?: string;
  action?: React.ReactNode;
}) => (
  <CardBox testId={testId}>
    <Flex direction="column" alignItems="stretch" gap={4}>
      <Flex justifyContent="space-between" alignItems="flex-start" gap={4} wrap="wrap">
        <Flex direction="column" alignItems="stretch" gap={1}>
          <Typography variant="delta" tag="h2">
            {title}
          </Typography>
          {subtitle ? (
            <Typography variant="pi" textColor="neutral600">
              {subtitle}
            </Typography>
          ) : null}
        </Flex>
        {action}
      </Flex>
      {children}
    </Flex>
  </CardBox>
);

const CardBox = ({ testId, children }: { testId?: string; children: React.ReactNode }) => {
  const { locale } = useIntl();
  return (
    <Box
      background="neutral0"
      hasRadius
      shadow="filterShadow"
      paddingTop={6}
      paddingBottom={6}
      paddingLeft={7}
      paddingRight={7}
      dir={textDirection(locale)}
      data-testid={testId}
    >
      {children}
    </Box>
  );
};

/** A label and its value, stacked. */
export const Fact = ({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) => (
  <Flex direction="column" alignItems="stretch" gap={1} data-testid={testId}>
    <Typography variant="sigma" textColor="neutral600">
      {label}
    </Typography>
    <Typography variant="omega" textColor="neutral800" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Flex>
);
