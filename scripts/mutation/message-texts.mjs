/**
 * A StrykerJS ignorer (scripts/mutation.mjs): the words of a domain's messages (an ignored event's
 * `reason`, a failure's `lastError`, a refusal's `message`) are said, not tested. Their mutants are reported
 * as ignored, with this reason, and count neither way. A status, a code (`lastErrorCode`) or any
 * other value stays mutated.
 */
const MESSAGE_KEYS = new Set(['reason', 'lastError', 'message']);

class MessageTexts {
  static inject = [];

  shouldIgnore(path) {
    if (!path.isObjectProperty() || path.node.computed) return undefined;
    const key = path.node.key;
    const name = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : null;
    const value = path.node.value.type;
    // A literal or template only: `lastError: event.reason` or `lastError: null` is a rule, kept.
    if (MESSAGE_KEYS.has(name) && (value === 'StringLiteral' || value === 'TemplateLiteral')) {
      return 'A message text: its wording is said, not tested (issue 36).';
    }
    return undefined;
  }
}

export const strykerPlugins = [{ kind: 'Ignore', name: 'message-texts', injectableClass: MessageTexts }];
