/**
 * A file name that is safe to send to the speech service, store on a row, show in the admin and hand to
 * Strapi's upload service, from whatever name a browser (or a script) sent with an upload.
 *
 * The upload's name is the client's to choose: `../../../etc/<img src=x onerror=alert(1)>.mp3` arrived as
 * is, went to the service in the multipart filename, and "Save to Media Library" then failed with 400,
 * because Strapi's upload service refuses names containing `<>:"/\|?*` or control characters. So:
 * - only the last path segment is kept (either slash), so no directory can be named;
 * - control characters, bidirectional overrides (which can disguise `gpj.exe` as `exe.jpg`) and the
 *   characters Windows and Strapi refuse (`<>:"|?*`) are removed;
 * - runs of white space (line breaks, tabs) become one space; leading dots and spaces (hidden files, `..`) and trailing dots
 *   and spaces (which Windows drops) are trimmed;
 * - the name is capped, cutting the stem and keeping the extension;
 * - a name left empty, or a Windows device name (`con`, `nul`, `com1` ...), gives the fallback's stem.
 * (No library: the plugin's dependencies have none that keeps the extension when it caps, and these rules
 * are the ones Strapi's upload service checks.)
 */

export const MAX_FILE_NAME_LENGTH = 120;
export const DEFAULT_FILE_NAME = 'recording.mp3';

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069<>:"|?*]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
/** An extension as file pickers write it: letters and digits, up to 10 of them. */
const EXTENSION = /\.([\p{L}\p{N}]{1,10})$/u;

/** The name without its extension and the extension (with its dot, or ''). */
export function splitExtension(name: string): { stem: string; extension: string } {
  const match = EXTENSION.exec(name);
  if (!match) return { stem: name, extension: '' };
  // `.mp3` alone is an extension with no stem, not a hidden file's stem.
  if (match.index === 0) return { stem: '', extension: match[0] };
  return { stem: name.slice(0, match.index), extension: match[0] };
}

function tidy(text: string): string {
  return text
    .replace(UNSAFE, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
}

/** Cuts by characters (code points), never inside a surrogate pair. */
function cut(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length <= length
    ? text
    : chars
        .slice(0, Math.max(0, length))
        .join('')
        .replace(/[\s.]+$/, '');
}

/**
 * The safe form of an uploaded file's name (see above). `fallback` must itself be safe; its stem replaces an
 * empty or reserved stem, and its extension is used when the name has none worth keeping and is empty.
 */
export function safeFileName(raw: unknown, fallback: string = DEFAULT_FILE_NAME, maxLength: number = MAX_FILE_NAME_LENGTH): string {
  const text = typeof raw === 'string' ? raw.normalize('NFC') : '';
  // Line breaks and tabs become spaces, other control characters go, all before the path is split.
  const base = (text.replace(/\s+/g, ' ').replace(UNSAFE, '').split(/[\\/]/).pop() ?? '').trim();
  const fallbackParts = splitExtension(fallback);
  const { stem: rawStem, extension: rawExtension } = splitExtension(base);
  let extension = tidy(rawExtension.slice(1));
  let stem = tidy(rawStem);
  if (!stem || WINDOWS_DEVICE.test(stem)) {
    stem = fallbackParts.stem;
    if (!extension) extension = fallbackParts.extension.slice(1);
  }
  const suffix = extension ? `.${extension}` : '';
  return `${cut(stem, maxLength - Array.from(suffix).length)}${suffix}` || fallback;
}
