/** The pronunciation lexicon: its rules, applied to the text before it is costed. Other features import it from here. */
export { compileLexicon, type LexiconRule } from './domain/rules';
