import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';

/** A titled white card, like the admin's own settings sections. */
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
  <Box
    background="neutral0"
    hasRadius
    shadow="filterShadow"
    paddingTop={6}
    paddingBottom={6}
    paddingLeft={7}
    paddingRight={7}
    data-testid={testId}
  >
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
  </Box>
);

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
