/**
 * Compiled (never run) by typecheck.test.ts: proof that the checks tying the server to
 * shared/contracts refuse a mismatch. Each `@ts-expect-error` line must fail to compile; were a
 * check to let its mismatch through, the directive itself would be the error.
 */
import { z } from 'zod/v3';
import type { DocumentTarget } from '../../../shared/contracts/common';
import type { EstimateRequest, NarrationView } from '../../../shared/contracts/narrations';
import type { LexiconAffectedRequest } from '../../../shared/contracts/lexicon';
import { adminNarrationView } from '../../../server/src/narration/domain/admin-view';
import { accepts, documentTarget, parsesTo } from '../../../server/src/http/validate';

// The schema the server parses with and the contract agree: accepted.
accepts<DocumentTarget>()(documentTarget);
accepts<LexiconAffectedRequest['body']>()(
  z.object({
    contentType: z.string(),
    locale: z.string().nullable().optional(),
    page: z.number().default(1),
    pageSize: z.number().default(25),
  })
);

// A field the contract has and the schema drops (the server would strip what the admin sends).
// @ts-expect-error schema without voiceId
accepts<EstimateRequest['body']>()(documentTarget);

// A field the schema reads and the contract does not say a client sends.
// @ts-expect-error schema with an extra field
accepts<DocumentTarget>()(documentTarget.extend({ voiceId: z.string().optional() }));

// Optional on one side only.
// @ts-expect-error documentId optional in the schema
accepts<DocumentTarget>()(documentTarget.extend({ documentId: z.string().optional() }));

// Another type.
// @ts-expect-error locale a number in the schema
accepts<DocumentTarget>()(documentTarget.extend({ locale: z.number().optional() }));

// A nested field differs.
const hearBody = z.object({ rule: z.object({ spoken: z.string(), locale: z.string().nullable() }) });
// @ts-expect-error rule.locale required in the schema
accepts<{ rule: { spoken: string; locale?: string | null } }>()(hearBody);

// The parsed output is compared where the input says nothing (a preprocessed form field).
const formFields = z.object({ format: z.preprocess((value) => value, z.enum(['json', 'srt'])) });
parsesTo<{ format: 'json' | 'srt' }>()(formFields);
// @ts-expect-error one format more in the contract
parsesTo<{ format: 'json' | 'srt' | 'vtt' }>()(formFields);

// An answer missing a field of the contract, or carrying one it does not have, fails its `satisfies`.
declare const row: Parameters<typeof adminNarrationView>[0];
const { audio: _audio, ...withoutAudio } = adminNarrationView(row);
// @ts-expect-error an answer without `audio`
void (withoutAudio satisfies NarrationView);
// @ts-expect-error an answer with a field the contract lacks
void ({ ...adminNarrationView(row), leaseOwner: null } satisfies NarrationView);
