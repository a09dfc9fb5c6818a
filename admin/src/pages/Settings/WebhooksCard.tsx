import * as React from 'react';
import { Badge, Button, Checkbox, Flex, LinkButton, Loader, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import { useNotification, useRBAC } from '@strapi/strapi/admin';
import { NavLink } from 'react-router-dom';
import { problemOf, toProblem } from '../../api/errors';
import { useGetSpeechSiteWebhooksQuery, useUpdateSpeechSiteWebhookMutation } from '../../api/speechApi';
import type { SiteWebhook } from '../../api/types';
import { PERMISSIONS } from '../../utils/permissions';
import { useTranslator, type Translator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { NARRATION_WEBHOOK_EVENTS, withWebhookEvent, type NarrationWebhookEvent } from './webhookEvents';

/**
 * Settings -> Speech: which of the site's webhooks receive `narration.ready` and
 * `narration.failed`. Strapi's own Settings -> Webhooks form lists only its built-in events (it
 * keeps the others when a webhook is saved there), so they are ticked here. Reading and saving go
 * through Strapi's own webhooks API: its webhooks permissions decide, not the plugin's.
 */
export const WebhooksCard = () => {
  const t = useTranslator();
  const {
    isLoading: loadingPermissions,
    allowedActions: { canRead, canUpdate, canCreate },
  } = useRBAC(PERMISSIONS.webhooks);

  const eventLabel: Record<NarrationWebhookEvent, string> = {
    'narration.ready': t('webhooks.ready', 'Narration ready'),
    'narration.failed': t('webhooks.failed', 'Narration failed'),
  };

  return (
    <Card
      testId="speech-webhooks"
      title={t('webhooks.title', 'Webhooks')}
      subtitle={t(
        'webhooks.subtitle',
        'Tell your front end when audio arrives: Strapi posts narration.ready and narration.failed to the webhooks ticked here. Saved at once.'
      )}
      action={
        canCreate ? (
          <LinkButton
            tag={NavLink}
            to="/settings/webhooks/create"
            variant="secondary"
            startIcon={<Plus />}
            data-testid="speech-webhooks-create"
          >
            {t('webhooks.create', 'Create a webhook')}
          </LinkButton>
        ) : null
      }
    >
      {loadingPermissions ? (
        <Loader small>{t('webhooks.loading', 'Loading the webhooks')}</Loader>
      ) : canRead ? (
        <WebhookTable canUpdate={canUpdate} eventLabel={eventLabel} t={t} />
      ) : (
        <Typography textColor="neutral600" data-testid="speech-webhooks-forbidden">
          {t(
            'webhooks.forbidden',
            "You may not see this site's webhooks. An administrator with the Webhooks permissions can subscribe them to narration events."
          )}
        </Typography>
      )}
    </Card>
  );
};

const WebhookTable = ({
  canUpdate,
  eventLabel,
  t,
}: {
  canUpdate: boolean;
  eventLabel: Record<NarrationWebhookEvent, string>;
  t: Translator;
}) => {
  const { toggleNotification } = useNotification();
  const query = useGetSpeechSiteWebhooksQuery(undefined, { refetchOnMountOrArgChange: true });
  const [updateWebhook] = useUpdateSpeechSiteWebhookMutation();
  const [saving, setSaving] = React.useState<string | null>(null);
  const problem = problemOf(query.error);

  const subscribe = async (webhook: SiteWebhook, event: NarrationWebhookEvent, subscribed: boolean) => {
    setSaving(webhook.id);
    try {
      await updateWebhook({ ...webhook, events: withWebhookEvent(webhook.events, event, subscribed) }).unwrap();
      toggleNotification({ type: 'success', message: t('webhooks.saved', 'Webhook "{name}" saved.', { name: webhook.name }) });
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    } finally {
      setSaving(null);
    }
  };

  if (query.isLoading) return <Loader small>{t('webhooks.loading', 'Loading the webhooks')}</Loader>;
  if (problem || !query.data) {
    return (
      <Flex gap={3} alignItems="center" wrap="wrap">
        <Typography textColor="danger600">
          {t('webhooks.error', 'The webhooks could not be read: {message}', { message: problem?.message ?? '' })}
        </Typography>
        <Button variant="tertiary" onClick={() => void query.refetch()}>
          {t('common.retry', 'Try again')}
        </Button>
      </Flex>
    );
  }
  if (query.data.length === 0) {
    return (
      <Typography textColor="neutral600" data-testid="speech-webhooks-empty">
        {t('webhooks.empty', 'This site has no webhook yet. Create one, then tick the narration events it should receive.')}
      </Typography>
    );
  }

  return (
    <Flex direction="column" alignItems="stretch" gap={3}>
      {canUpdate ? null : (
        <Typography textColor="neutral600" data-testid="speech-webhooks-read-only">
          {t('webhooks.readOnly', 'You may see these webhooks but not change them.')}
        </Typography>
      )}
      <Table colCount={2 + NARRATION_WEBHOOK_EVENTS.length} rowCount={query.data.length + 1}>
        <Thead>
          <Tr>
            <Th>
              <Typography variant="sigma">{t('webhooks.name', 'Webhook')}</Typography>
            </Th>
            <Th>
              <Typography variant="sigma">{t('webhooks.url', 'URL')}</Typography>
            </Th>
            {NARRATION_WEBHOOK_EVENTS.map((event) => (
              <Th key={event}>
                <Flex direction="column" alignItems="flex-start">
                  <Typography variant="sigma">{eventLabel[event]}</Typography>
                  <Typography variant="pi" textColor="neutral500">
                    <bdi dir="ltr">{event}</bdi>
                  </Typography>
                </Flex>
              </Th>
            ))}
          </Tr>
        </Thead>
        <Tbody>
          {query.data.map((webhook) => (
            <Tr key={webhook.id} data-testid={`speech-webhook-${webhook.id}`}>
              <Td>
                <Flex gap={2} wrap="wrap">
                  <Typography fontWeight="semiBold">{webhook.name}</Typography>
                  {webhook.isEnabled ? null : <Badge>{t('webhooks.disabled', 'Disabled')}</Badge>}
                </Flex>
              </Td>
              <Td>
                <Typography textColor="neutral600" style={{ overflowWrap: 'anywhere' }}>
                  <bdi dir="ltr">{webhook.url}</bdi>
                </Typography>
              </Td>
              {NARRATION_WEBHOOK_EVENTS.map((event) => (
                <Td key={event}>
                  <Checkbox
                    name={`webhook.${webhook.id}.${event}`}
                    aria-label={t('webhooks.subscribe', '{event} to {name}', { event: eventLabel[event], name: webhook.name })}
                    checked={webhook.events.includes(event)}
                    disabled={!canUpdate || saving === webhook.id}
                    onCheckedChange={(checked) => void subscribe(webhook, event, checked === true)}
                    data-event={event}
                  />
                </Td>
              ))}
            </Tr>
          ))}
        </Tbody>
      </Table>
    </Flex>
  );
};
