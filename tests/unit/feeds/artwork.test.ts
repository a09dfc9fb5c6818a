import { imageSize } from 'image-size';
import { artworkProblem, checkArtwork } from '../../../server/src/feeds/artwork';
import { pngHead } from './png-fixtures';

describe("a feed's artwork", () => {
  it('is taken square, from 1400 to 3000 px, as JPEG or PNG', () => {
    expect(artworkProblem(imageSize(pngHead(1400, 1400)))).toBeNull();
    expect(artworkProblem(imageSize(pngHead(3000, 3000)))).toBeNull();
    expect(artworkProblem({ width: 2000, height: 2000, type: 'jpg' })).toBeNull();
  });

  it('says what is wrong otherwise', () => {
    expect(artworkProblem(imageSize(pngHead(1600, 900)))).toBe('it is 1600×900 px, not square');
    expect(artworkProblem(imageSize(pngHead(600, 600)))).toBe('it is 600×600 px; Apple takes 1400 to 3000 px a side');
    expect(artworkProblem(imageSize(pngHead(3001, 3001)))).toBe('it is 3001×3001 px; Apple takes 1400 to 3000 px a side');
    expect(artworkProblem({ width: 1400, height: 1400, type: 'webp' })).toBe('it is a WEBP, not a JPEG or PNG');
    expect(artworkProblem(null)).toBe('its size could not be read');
  });

  it('warns once per image that would be refused, naming its key; a good one passes in silence', async () => {
    const warnings: string[] = [];
    const sizes: Record<string, { width: number; height: number; type: string } | null> = {
      'https://cdn.example/good.png': { width: 1400, height: 1400, type: 'png' },
      'https://cdn.example/wide.png': { width: 1600, height: 900, type: 'png' },
      'https://cdn.example/gone.png': null,
    };
    await checkArtwork(
      Object.keys(sizes).map((url, index) => ({ key: `key${index}`, url })),
      (message) => warnings.push(message),
      async (url) => sizes[url]!
    );
    expect(warnings).toEqual([
      '[speech] key1 (https://cdn.example/wide.png): podcast directories may refuse this artwork: it is 1600×900 px, not square.',
      '[speech] key2 (https://cdn.example/gone.png): podcast directories may refuse this artwork: it could not be downloaded.',
    ]);
  });
});
