/** The longest files allowed: lines counted as `wc -l` counts them, one per newline character. */
import fs from 'node:fs';
import path from 'node:path';

export interface FileLength {
  path: string;
  lines: number;
}

/** Newline characters, as `wc -l`: a last line without one is not counted. */
export function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** The files longer than `limit` lines, longest first. */
export function filesOverLimit(files: { path: string; text: string }[], limit: number): FileLength[] {
  return files
    .map((file) => ({ path: file.path, lines: lineCount(file.text) }))
    .filter((file) => file.lines > limit)
    .sort((a, b) => b.lines - a.lines || (a.path < b.path ? -1 : 1));
}

/** Every file under the folders (and their subfolders), as paths relative to `root` with forward slashes. */
export function filesUnder(root: string, folders: string[]): string[] {
  return folders
    .filter((folder) => fs.existsSync(path.join(root, folder)))
    .flatMap((folder) =>
      fs
        .readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    )
    .sort();
}
