/** The pronunciation lexicon, applied to the text before it is costed. */
export { compileLexicon, type LexiconRule } from './domain/rules';
