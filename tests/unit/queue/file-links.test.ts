import { allFiles, linkStoredFiles } from '../../../server/src/queue/domain/file-links';

const file = (id: number) => ({ id, url: `https://bucket.test/${id}.bin` });
const links = { audio: 21, subtitles: 22, subtitlesVtt: 23 };

describe("a store's final write and the row's other files", () => {
  it('the first store: its uploads leave pendingUploads, nothing is replaced', () => {
    const result = linkStoredFiles({ pendingUploads: [file(21), file(22), file(23)] }, links);
    expect(result).toEqual({ pendingUploads: [], replacedFiles: [], toRemove: [] });
  });

  it('a regenerate: the three old files wait in replacedFiles and are the ones to remove', () => {
    const before = { audio: file(11), subtitles: file(12), subtitlesVtt: file(13), pendingUploads: [file(21), file(22), file(23)] };
    const result = linkStoredFiles(before, links);
    expect(result.pendingUploads).toEqual([]);
    expect(result.replacedFiles).toEqual([11, 12, 13]);
    expect(result.toRemove).toEqual([file(11), file(12), file(13)]);
  });

  it('files an earlier removal left (a crash, a failed delete) are removed with the new ones, once each', () => {
    const before = { audio: file(11), subtitles: file(12), subtitlesVtt: file(13), replacedFiles: [file(5), file(6), file(11)] };
    const result = linkStoredFiles(before, links);
    expect(result.replacedFiles).toEqual([5, 6, 11, 12, 13]);
    expect(result.toRemove.map((removed) => removed.id)).toEqual([5, 6, 11, 12, 13]);
  });

  it("an upload of another store (one that lost the row's lease) stays pending, for that store or the next to remove", () => {
    const result = linkStoredFiles({ pendingUploads: [file(21), file(30), file(22), file(23)] }, links);
    expect(result.pendingUploads).toEqual([30]);
    expect(result.toRemove).toEqual([]);
  });

  it('a file linked again (the same upload) is neither replaced nor removed', () => {
    const result = linkStoredFiles({ audio: file(21), subtitles: file(12), subtitlesVtt: file(23), replacedFiles: [file(22)] }, links);
    expect(result.replacedFiles).toEqual([12]);
    expect(result.toRemove).toEqual([file(12)]);
  });

  it('a deleted row gives up every file it holds', () => {
    const row = { audio: file(1), subtitles: null, subtitlesVtt: file(3), pendingUploads: [file(4)], replacedFiles: [file(5), file(1)] };
    expect(allFiles(row).map((held) => held.id)).toEqual([1, 3, 4, 5]);
    expect(allFiles({})).toEqual([]);
  });
});
