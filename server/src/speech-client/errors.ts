/**
 * Errors of the speech service, one class per contract code (spec section 7), generated from one
 * table. Messages are for editors and never hold the API key (the transport scrubs response bodies).
 */
import { MAX_TRANSCRIPTION_UPLOAD_BYTES } from '../../../shared/contracts/transcriptions';
import { formatDuration, formatMegabytes, insufficientCreditsMessage, withReason } from './wording';

export type SpeechEndpoint = 'article' | 'general';

export interface SpeechServiceErrorInit {
  message?: string;
  status?: number;
  details?: Record<string, unknown>;
  retryAfterMs?: number;
  creditsRemaining?: number;
  creditsRequired?: number;
  /** The code the service sent, kept when it is unknown and the class was chosen by status. */
  serviceCode?: string;
  serviceMessage?: string;
  outcomeUnknown?: boolean;
  /** Only for PayloadTooLargeError's message; not kept on the error. */
  sizeBytes?: number;
}

interface BaseInit extends SpeechServiceErrorInit {
  code: string;
  retryable: boolean;
}

export class SpeechServiceError extends Error {
  status?: number;
  code: string;
  details?: Record<string, unknown>;
  retryAfterMs?: number;
  creditsRemaining?: number;
  creditsRequired?: number;
  retryable: boolean;
  serviceCode?: string;
  serviceMessage?: string;
  /**
   * It may have been acted on without an answer saying so: repeating a paid request can pay twice,
   * so first ask in a way that cannot charge (for /process-text: regenerate false).
   */
  outcomeUnknown: boolean;

  constructor(message: string, init: BaseInit) {
    super(message);
    // Keeps `instanceof` working should a bundler ever down-level classes to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'SpeechServiceError';
    this.code = init.code;
    this.retryable = init.retryable;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    if (init.status !== undefined) this.status = init.status;
    if (init.details !== undefined) this.details = init.details;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.creditsRemaining !== undefined) this.creditsRemaining = init.creditsRemaining;
    if (init.creditsRequired !== undefined) this.creditsRequired = init.creditsRequired;
    if (init.serviceCode !== undefined) this.serviceCode = init.serviceCode;
    if (init.serviceMessage !== undefined) this.serviceMessage = init.serviceMessage;
  }

  /** Safe to log and return: no stack, no raw body. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      message: this.message,
      retryable: this.retryable,
      outcomeUnknown: this.outcomeUnknown,
      retryAfterMs: this.retryAfterMs,
      creditsRemaining: this.creditsRemaining,
      creditsRequired: this.creditsRequired,
      serviceCode: this.serviceCode,
      details: this.details,
    };
  }
}

export { MAX_TRANSCRIPTION_UPLOAD_BYTES };

const REJECTED_KEY_MESSAGE =
  'The speech service rejected the API key (missing, invalid, revoked or expired). Check the key in the plugin settings.';

interface ServiceErrorRow {
  code: string;
  status?: number;
  retryable: boolean;
  outcomeUnknown?: boolean;
  /** Codes are unique across both contract tables, so one lookup serves both endpoints. */
  readFromBody: boolean;
  /** What it stands for when a response of that endpoint carries no code we know. */
  standsForStatus?: Partial<Record<SpeechEndpoint, readonly number[]>>;
  message: (init: SpeechServiceErrorInit) => string;
}

/** Article endpoint's rows first: there a bare 400 can only be INVALID_VOICE_ID, a bare 422 VALIDATION_ERROR. */
const SERVICE_ERRORS = {
  AuthFailedError: {
    code: 'AUTH_FAILED',
    status: 401,
    retryable: false,
    readFromBody: true,
    standsForStatus: { article: [401] },
    message: () => REJECTED_KEY_MESSAGE,
  },
  ValidationFailedError: {
    code: 'VALIDATION_ERROR',
    status: 422,
    retryable: false,
    readFromBody: true,
    standsForStatus: { article: [422] },
    message: (init) => withReason("The speech service rejected the article's data", init.serviceMessage, init.details),
  },
  InvalidVoiceIdError: {
    code: 'INVALID_VOICE_ID',
    status: 400,
    retryable: false,
    readFromBody: true,
    standsForStatus: { article: [400] },
    message: () => 'The chosen voice does not exist on the speech service. Pick another voice.',
  },
  // Not retryable: the callback of the generation in progress will arrive on its own.
  AlreadyProcessingError: {
    code: 'ALREADY_PROCESSING',
    status: 409,
    retryable: false,
    readFromBody: true,
    standsForStatus: { article: [409] },
    message: () => 'This article is already being narrated; its result will arrive when the current narration finishes.',
  },
  ProcessingError: {
    code: 'PROCESSING_ERROR',
    status: 422,
    retryable: false,
    readFromBody: true,
    message: () => 'The speech service could not narrate the article; the credits it took were refunded.',
  },
  RefundFailedError: {
    code: 'REFUND_FAILED',
    status: 422,
    retryable: false,
    readFromBody: true,
    message: () =>
      'The speech service could not narrate the article, and it could not refund the credits it took. Contact the speech service about the refund.',
  },

  InvalidRequestError: {
    code: 'INVALID_REQUEST',
    status: 400,
    retryable: false,
    readFromBody: true,
    // 422 is not in the general table, but frameworks answer validation failures with it.
    standsForStatus: { general: [400, 422] },
    message: (init) => withReason('The speech service rejected the request', init.serviceMessage, init.details),
  },
  UnauthorizedError: {
    code: 'UNAUTHORIZED',
    status: 401,
    retryable: false,
    readFromBody: true,
    standsForStatus: { general: [401] },
    message: () => REJECTED_KEY_MESSAGE,
  },
  InsufficientCreditsError: {
    code: 'INSUFFICIENT_CREDITS',
    status: 402,
    retryable: false,
    readFromBody: true,
    standsForStatus: { general: [402] },
    message: (init) => insufficientCreditsMessage(init.creditsRequired, init.creditsRemaining),
  },
  ForbiddenError: {
    code: 'FORBIDDEN',
    status: 403,
    retryable: false,
    readFromBody: true,
    standsForStatus: { general: [403] },
    message: () => 'The API key is not allowed to do this (for example, the voice or feature is not included in the plan).',
  },
  NotFoundError: {
    code: 'NOT_FOUND',
    status: 404,
    retryable: false,
    readFromBody: true,
    standsForStatus: { general: [404] },
    message: (init) =>
      typeof init.details?.voice_id === 'string'
        ? `The speech service has no voice "${init.details.voice_id}". Pick another voice.`
        : 'The speech service could not find what was asked for (a voice, a job, or the address itself).',
  },
  // Retryable: the service allows one request per account at a time (spec 7.5: wait and retry).
  ConcurrentRequestError: {
    code: 'CONCURRENT_REQUEST',
    status: 409,
    retryable: true,
    readFromBody: true,
    standsForStatus: { general: [409] },
    message: () => 'The speech service is still busy with another request from this account; this one will be retried.',
  },
  RateLimitExceededError: {
    code: 'RATE_LIMIT_EXCEEDED',
    status: 429,
    retryable: true,
    readFromBody: true,
    standsForStatus: { general: [429] },
    message: (init) =>
      `The speech service is rate limiting requests; retrying ${
        init.retryAfterMs !== undefined ? `in ${formatDuration(init.retryAfterMs)}` : 'shortly'
      }.`,
  },
  InternalServerError: {
    code: 'INTERNAL_ERROR',
    status: 500,
    retryable: true,
    // A server error says nothing about what was done before it happened.
    outcomeUnknown: true,
    readFromBody: true,
    standsForStatus: { general: [500] },
    message: () => 'The speech service had an internal error; the request will be retried.',
  },
  // Raised locally, before anything is sent, for audio over the 50 MB limit of spec section 8 (or by a 413 answer).
  PayloadTooLargeError: {
    code: 'PAYLOAD_TOO_LARGE',
    status: 413,
    retryable: false,
    readFromBody: true,
    standsForStatus: { general: [413] },
    message: ({ sizeBytes }) =>
      `The audio file${sizeBytes !== undefined ? ` is ${formatMegabytes(sizeBytes)} and` : ''} is too large: the speech service accepts at most ${formatMegabytes(MAX_TRANSCRIPTION_UPLOAD_BYTES)}.`,
  },

  SpeechServiceUnavailableError: {
    code: 'SERVICE_UNAVAILABLE',
    retryable: true,
    readFromBody: false,
    message: () => 'The speech service is unavailable right now; the request will be retried.',
  },
  // The service answered outside the contract (a redirect, an odd status, a body without the expected fields).
  UnexpectedResponseError: {
    code: 'UNEXPECTED_RESPONSE',
    retryable: false,
    readFromBody: false,
    message: ({ status }) => `The speech service sent an unexpected response${status !== undefined ? ` (HTTP ${status})` : ''}.`,
  },
  UploadSourceError: {
    code: 'UPLOAD_SOURCE_ERROR',
    retryable: false,
    readFromBody: false,
    message: () => 'The audio file could not be read for upload.',
  },
  RequestAbortedError: {
    code: 'ABORTED',
    retryable: false,
    readFromBody: false,
    message: () => 'The request to the speech service was cancelled.',
  },
} as const satisfies Record<string, ServiceErrorRow>;

type ServiceErrorName = keyof typeof SERVICE_ERRORS;
type CodeOf<N extends ServiceErrorName> = (typeof SERVICE_ERRORS)[N]['code'];

/** The literal code keeps `instanceof` checks of different classes apart for TypeScript. */
export type ServiceError<Code extends string = string> = SpeechServiceError & { readonly code: Code };

export interface ServiceErrorClass<Code extends string = string> {
  new (init?: SpeechServiceErrorInit): ServiceError<Code>;
  readonly prototype: ServiceError<Code>;
}

const classByCode = new Map<string, ServiceErrorClass>();
const classByStatus: Record<SpeechEndpoint, Map<number, ServiceErrorClass>> = { article: new Map(), general: new Map() };

function defineServiceError<N extends ServiceErrorName>(name: N): ServiceErrorClass<CodeOf<N>> {
  const row: ServiceErrorRow = SERVICE_ERRORS[name];
  const ServiceError = class extends SpeechServiceError {
    constructor(init: SpeechServiceErrorInit = {}) {
      super(init.message ?? row.message(init), {
        ...init,
        status: init.status ?? row.status,
        code: row.code,
        retryable: row.retryable,
        outcomeUnknown: init.outcomeUnknown ?? row.outcomeUnknown,
      });
      this.name = name;
    }
  };
  Object.defineProperty(ServiceError, 'name', { value: name });

  if (row.readFromBody) classByCode.set(row.code, ServiceError);
  for (const endpoint of ['article', 'general'] as const) {
    for (const status of row.standsForStatus?.[endpoint] ?? []) {
      if (classByStatus[endpoint].has(status)) throw new Error(`Two error classes stand for ${endpoint} status ${status}.`);
      classByStatus[endpoint].set(status, ServiceError);
    }
  }
  // The constructor sets `code` from the row, so instances do carry the row's literal code.
  return ServiceError as unknown as ServiceErrorClass<CodeOf<N>>;
}

export function serviceErrorForCode(code: string): ServiceErrorClass | undefined {
  return classByCode.get(code);
}

export function serviceErrorForStatus(endpoint: SpeechEndpoint, status: number): ServiceErrorClass | undefined {
  return (endpoint === 'article' ? classByStatus.article.get(status) : undefined) ?? classByStatus.general.get(status);
}

// Article endpoint (POST /process-text), spec 7.4
export const AuthFailedError = defineServiceError('AuthFailedError');
export type AuthFailedError = InstanceType<typeof AuthFailedError>;
export const ValidationFailedError = defineServiceError('ValidationFailedError');
export type ValidationFailedError = InstanceType<typeof ValidationFailedError>;
export const InvalidVoiceIdError = defineServiceError('InvalidVoiceIdError');
export type InvalidVoiceIdError = InstanceType<typeof InvalidVoiceIdError>;
export const AlreadyProcessingError = defineServiceError('AlreadyProcessingError');
export type AlreadyProcessingError = InstanceType<typeof AlreadyProcessingError>;
export const ProcessingError = defineServiceError('ProcessingError');
export type ProcessingError = InstanceType<typeof ProcessingError>;
export const RefundFailedError = defineServiceError('RefundFailedError');
export type RefundFailedError = InstanceType<typeof RefundFailedError>;

// General error model, spec 7.3
export const InvalidRequestError = defineServiceError('InvalidRequestError');
export type InvalidRequestError = InstanceType<typeof InvalidRequestError>;
export const UnauthorizedError = defineServiceError('UnauthorizedError');
export type UnauthorizedError = InstanceType<typeof UnauthorizedError>;
export const InsufficientCreditsError = defineServiceError('InsufficientCreditsError');
export type InsufficientCreditsError = InstanceType<typeof InsufficientCreditsError>;
export const ForbiddenError = defineServiceError('ForbiddenError');
export type ForbiddenError = InstanceType<typeof ForbiddenError>;
export const NotFoundError = defineServiceError('NotFoundError');
export type NotFoundError = InstanceType<typeof NotFoundError>;
export const ConcurrentRequestError = defineServiceError('ConcurrentRequestError');
export type ConcurrentRequestError = InstanceType<typeof ConcurrentRequestError>;
export const RateLimitExceededError = defineServiceError('RateLimitExceededError');
export type RateLimitExceededError = InstanceType<typeof RateLimitExceededError>;
export const InternalServerError = defineServiceError('InternalServerError');
export type InternalServerError = InstanceType<typeof InternalServerError>;
export const PayloadTooLargeError = defineServiceError('PayloadTooLargeError');
export type PayloadTooLargeError = InstanceType<typeof PayloadTooLargeError>;

// Transport and local failures
export const SpeechServiceUnavailableError = defineServiceError('SpeechServiceUnavailableError');
export type SpeechServiceUnavailableError = InstanceType<typeof SpeechServiceUnavailableError>;
export const UnexpectedResponseError = defineServiceError('UnexpectedResponseError');
export type UnexpectedResponseError = InstanceType<typeof UnexpectedResponseError>;
export const UploadSourceError = defineServiceError('UploadSourceError');
export type UploadSourceError = InstanceType<typeof UploadSourceError>;
export const RequestAbortedError = defineServiceError('RequestAbortedError');
export type RequestAbortedError = InstanceType<typeof RequestAbortedError>;
