import narrationSchema from './narration/schema.json';

export const NARRATION_UID = 'plugin::speech.narration' as const;

export default {
  narration: { schema: narrationSchema },
};
