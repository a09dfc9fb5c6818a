import { BADGE_LABEL, badgeKind, isInProgress, knownErrorCode, rowForLocale } from '../../../admin/src/utils/status';
import { clockTime } from '../../../admin/src/utils/clockTime';
import { modelFromPath } from '../../../admin/src/utils/paths';
import type { NarrationStatus } from '../../../admin/src/api/types';
import { queueState as queue } from './fixtures';

describe('admin badge mapping', () => {
  it.each<[NarrationStatus | null, string]>([
    [null, 'none'],
    ['queued', 'queued'],
    ['submitting', 'queued'],
    ['awaiting_callback', 'generating'],
    // A segmented narration whose parts are being generated (issue 23).
    ['awaiting_parts', 'generating'],
    ['storing', 'generating'],
    ['completed', 'ready'],
    ['failed', 'failed'],
    ['cancelled', 'cancelled'],
  ])('%s -> %s', (status, kind) => {
    expect(badgeKind(status ? { status } : null, queue())).toBe(kind);
  });

  it('shows "Paused for credits" for waiting narrations only when the queue is paused for credits', () => {
    const paused = queue({ paused: true, pauseCode: 'INSUFFICIENT_CREDITS' });
    expect(badgeKind({ status: 'queued' }, paused)).toBe('paused');
    expect(badgeKind({ status: 'submitting' }, paused)).toBe('paused');
    expect(badgeKind({ status: 'awaiting_callback' }, paused)).toBe('generating');
    expect(badgeKind({ status: 'queued' }, queue({ paused: true, pauseCode: 'AUTH_FAILED' }))).toBe('queued');
    expect(BADGE_LABEL.paused).toBe('Paused for credits');
    expect(BADGE_LABEL.none).toBe('Not narrated');
  });

  it('marks a ready narration whose check heard something else, and only that', () => {
    const verification = (status: 'pending' | 'verified' | 'mismatch' | 'failed') => ({
      status,
      wordAccuracy: null,
      placeCount: 2,
      places: [],
      checks: { total: 1, done: 1 },
      reason: null,
      checkedAt: null,
    });
    expect(badgeKind({ status: 'completed', verification: verification('mismatch') }, queue())).toBe('mismatch');
    expect(BADGE_LABEL.mismatch).toBe('Ready, check audio');
    for (const status of ['pending', 'verified', 'failed'] as const) {
      expect(badgeKind({ status: 'completed', verification: verification(status) }, queue())).toBe('ready');
    }
    expect(badgeKind({ status: 'completed', verification: null }, queue())).toBe('ready');
    // A new version on its way: the badge says so, whatever the last audio's check said.
    expect(badgeKind({ status: 'queued', verification: verification('mismatch') }, queue())).toBe('queued');
  });

  it('knows which statuses are in progress', () => {
    expect(isInProgress({ status: 'queued' })).toBe(true);
    expect(isInProgress({ status: 'storing' })).toBe(true);
    expect(isInProgress({ status: 'awaiting_parts' })).toBe(true);
    expect(isInProgress({ status: 'completed' })).toBe(false);
    expect(isInProgress(null)).toBe(false);
  });

  it('picks the row of the current locale, or the row of a non-localized type', () => {
    const rows = [
      { locale: 'en', id: 1 },
      { locale: 'ar', id: 2 },
    ];
    expect(rowForLocale(rows, 'ar')?.id).toBe(2);
    expect(rowForLocale(rows, 'fr')).toBeNull();
    expect(rowForLocale([{ locale: null, id: 3 }], 'en')?.id).toBe(3);
    expect(rowForLocale([{ locale: null, id: 3 }], null)?.id).toBe(3);
    expect(rowForLocale([], 'en')).toBeNull();
  });

  it('only explains error codes it knows', () => {
    expect(knownErrorCode('NO_AUDIO')).toBe('NO_AUDIO');
    expect(knownErrorCode('TEXT_TOO_LONG')).toBe('TEXT_TOO_LONG');
    expect(knownErrorCode('PART_LOST')).toBe('PART_LOST');
    expect(knownErrorCode('SOMETHING_NEW')).toBeNull();
    expect(knownErrorCode(null)).toBeNull();
  });

  it('reads the content type of a list view URL', () => {
    expect(modelFromPath('/admin/content-manager/collection-types/api::article.article')).toBe('api::article.article');
    expect(modelFromPath('/admin/content-manager/collection-types/api::article.article/abc')).toBe('api::article.article');
    expect(modelFromPath('/admin/content-manager/single-types/api::home.home')).toBeNull();
    expect(modelFromPath('/admin/settings/speech')).toBeNull();
  });
});

describe('a time in the audio', () => {
  it.each([
    [0, '0:00'],
    [8.667, '0:08'],
    [75, '1:15'],
    [3725.4, '1:02:05'],
  ])('%s s reads %s', (seconds, shown) => {
    expect(clockTime(seconds)).toBe(shown);
  });
});
