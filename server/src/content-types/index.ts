import leaseSchema from './lease/schema.json';
import narrationSchema from './narration/schema.json';
import transcriptionSchema from './transcription/schema.json';

export const NARRATION_UID = 'plugin::speech.narration' as const;
export const LEASE_UID = 'plugin::speech.lease' as const;

export default {
  narration: { schema: narrationSchema },
  lease: { schema: leaseSchema },
  transcription: { schema: transcriptionSchema },
};
