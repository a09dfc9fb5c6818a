import backfillSchema from './backfill/schema.json';
import leaseSchema from './lease/schema.json';
import ledgerArticleSchema from './ledger-article/schema.json';
import ledgerDaySchema from './ledger-day/schema.json';
import ledgerEntrySchema from './ledger-entry/schema.json';
import listeningDaySchema from './listening-day/schema.json';
import listeningSaltSchema from './listening-salt/schema.json';
import listeningUniqueSchema from './listening-unique/schema.json';
import narrationSchema from './narration/schema.json';
import narrationPartSchema from './narration-part/schema.json';
import passageVoiceSchema from './passage-voice/schema.json';
import pendingRecordingSchema from './pending-recording/schema.json';
import transcriptionSchema from './transcription/schema.json';
import verificationSchema from './verification/schema.json';
import voiceOverrideSchema from './voice-override/schema.json';

export const BACKFILL_UID = 'plugin::speech.backfill' as const;
export const NARRATION_UID = 'plugin::speech.narration' as const;
export const NARRATION_PART_UID = 'plugin::speech.narration-part' as const;
export const LEASE_UID = 'plugin::speech.lease' as const;
export const VOICE_OVERRIDE_UID = 'plugin::speech.voice-override' as const;
export const PASSAGE_VOICE_UID = 'plugin::speech.passage-voice' as const;
export const PENDING_RECORDING_UID = 'plugin::speech.pending-recording' as const;
export const LEDGER_ENTRY_UID = 'plugin::speech.ledger-entry' as const;
export const LEDGER_DAY_UID = 'plugin::speech.ledger-day' as const;
export const LEDGER_ARTICLE_UID = 'plugin::speech.ledger-article' as const;
export const LISTENING_DAY_UID = 'plugin::speech.listening-day' as const;
export const LISTENING_UNIQUE_UID = 'plugin::speech.listening-unique' as const;
export const LISTENING_SALT_UID = 'plugin::speech.listening-salt' as const;
export const VERIFICATION_UID = 'plugin::speech.verification' as const;

export default {
  narration: { schema: narrationSchema },
  'narration-part': { schema: narrationPartSchema },
  lease: { schema: leaseSchema },
  transcription: { schema: transcriptionSchema },
  'voice-override': { schema: voiceOverrideSchema },
  'passage-voice': { schema: passageVoiceSchema },
  'pending-recording': { schema: pendingRecordingSchema },
  'ledger-entry': { schema: ledgerEntrySchema },
  'ledger-day': { schema: ledgerDaySchema },
  'ledger-article': { schema: ledgerArticleSchema },
  'listening-day': { schema: listeningDaySchema },
  'listening-unique': { schema: listeningUniqueSchema },
  'listening-salt': { schema: listeningSaltSchema },
  verification: { schema: verificationSchema },
  backfill: { schema: backfillSchema },
};
