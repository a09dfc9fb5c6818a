/** How the speech client words things for an editor. */

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

export function cleanMessage(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

export function withReason(sentence: string, serviceMessage: string | undefined, details: Record<string, unknown> | undefined): string {
  const reason = serviceMessage ?? summariseFieldErrors(details);
  return reason ? `${sentence}: ${reason.replace(/[.\s]+$/, '')}.` : `${sentence}.`;
}

function summariseFieldErrors(details: Record<string, unknown> | undefined): string | undefined {
  if (!details) return undefined;
  const parts: string[] = [];
  for (const [field, messages] of Object.entries(details)) {
    const list = Array.isArray(messages)
      ? messages.filter((m): m is string => typeof m === 'string')
      : typeof messages === 'string'
        ? [messages]
        : [];
    if (list.length > 0) parts.push(`${field}: ${list.join(' ').replace(/[.\s]+$/, '')}`);
    if (parts.length === 3) break;
  }
  return parts.length > 0 ? cleanMessage(parts.join('; ')) : undefined;
}

export function insufficientCreditsMessage(required: number | undefined, remaining: number | undefined): string {
  if (required !== undefined && remaining !== undefined) {
    return `Not enough credits: ${formatCount(required)} needed, ${formatCount(remaining)} left. Buy credits or shorten the text.`;
  }
  if (remaining !== undefined) return `Not enough credits: ${formatCount(remaining)} left. Buy credits or shorten the text.`;
  return 'Not enough credits on the speech service account. Buy credits or shorten the text.';
}
