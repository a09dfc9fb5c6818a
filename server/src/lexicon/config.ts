import { z } from 'zod/v3';
import type { LexiconRule } from '../../../shared/contracts/lexicon';
import { oneLine } from '../text';
import { localeCode } from '../utils';

/** A term repeated for the same locale is refused. */

export const MAX_LEXICON_RULES = 500;
export const MAX_TERM_LENGTH = 100;
export const MAX_SPOKEN_LENGTH = 300;

export const lexiconRuleSchema = z
  .object({
    term: z
      .string()
      .transform(oneLine)
      .pipe(z.string().min(1, 'write the term to replace').max(MAX_TERM_LENGTH, `a term may have at most ${MAX_TERM_LENGTH} characters`)),
    spoken: z
      .string()
      .transform(oneLine)
      .pipe(
        z
          .string()
          .min(1, 'write how the term is spoken')
          .max(MAX_SPOKEN_LENGTH, `a spoken form may have at most ${MAX_SPOKEN_LENGTH} characters`)
      ),
    /** null: every locale. */
    locale: localeCode.nullable().default(null),
    wholeWord: z.boolean().default(true),
    caseSensitive: z.boolean().default(false),
    ignoreDiacritics: z.boolean().default(false),
    letterVariants: z.boolean().default(false),
  })
  .strict() satisfies z.ZodType<LexiconRule, z.ZodTypeDef, unknown>;

export const lexiconSchema = z
  .array(lexiconRuleSchema)
  .max(MAX_LEXICON_RULES, `the lexicon may have at most ${MAX_LEXICON_RULES} rules`)
  .superRefine((rules, ctx) => {
    const seen = new Map<string, number>();
    rules.forEach((rule, index) => {
      const key = `${rule.locale ?? '*'}\u0000${rule.caseSensitive ? rule.term : rule.term.toLowerCase()}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [index, 'term'],
          message: `repeats the term of rule ${first + 1} ("${rules[first].term}") for the same locale`,
        });
    });
  });

/** Not in the configuration file: only editors change it. */
export const lexiconSettingsShape = {
  /** Changing them re-narrates nothing until an article is narrated again. */
  lexicon: lexiconSchema,
};
