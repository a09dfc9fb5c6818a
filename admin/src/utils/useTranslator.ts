import * as React from 'react';
import { useIntl } from 'react-intl';
import { getTranslation } from './getTranslation';

/** Plain values a message interpolates (`{count}`, `{name}`): the message is then a string. */
export type MessageValues = Record<string, string | number | boolean | null | undefined>;
/** Values some of which are elements (`{credits}` in bold): the message is then a node to render. */
export type RichMessageValues = Record<string, React.ReactNode>;

/** One of the plugin's messages (its id under the plugin's prefix) in the admin's language. */
export interface Translator {
  (id: string, defaultMessage: string, values?: MessageValues): string;
  (id: string, defaultMessage: string, values: RichMessageValues): React.ReactNode;
}

/** The `t` of the plugin's components. */
export function useTranslator(): Translator {
  const { formatMessage } = useIntl();
  return React.useMemo(() => {
    function t(id: string, defaultMessage: string, values?: MessageValues): string;
    function t(id: string, defaultMessage: string, values: RichMessageValues): React.ReactNode;
    function t(id: string, defaultMessage: string, values?: RichMessageValues): React.ReactNode {
      return formatMessage({ id: getTranslation(id), defaultMessage }, values);
    }
    return t;
  }, [formatMessage]);
}
