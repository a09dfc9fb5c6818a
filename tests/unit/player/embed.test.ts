import { DEFAULT_AI_LABELS, aiLabelFor } from '../../../server/src/narration/domain/ai-label';
import { EMBED_SIZE, embedPage, embedPolicy, oembedResponse } from '../../../server/src/player/embed';

describe('the embed page', () => {
  const page = embedPage({
    api: 'https://cms.example',
    playerUrl: 'https://cms.example/api/speech/player.js?v=abc',
    articleId: 'doc"1-ar',
    title: 'عنوان <b>"مهم"</b> & آخر',
    locale: 'ar',
    oembedUrl: 'https://cms.example/api/speech/oembed?url=https%3A%2F%2Fcms.example%2Fapi%2Fspeech%2Fembed%2Fdoc1-ar&format=json',
  });

  it('holds the player alone, reading its start from #t=, and links its oEmbed', () => {
    expect(page).toContain('<speech-narration api="https://cms.example" article-id="doc&quot;1-ar" start-from-hash></speech-narration>');
    expect(page).toContain('<script type="module" src="https://cms.example/api/speech/player.js?v=abc"></script>');
    expect(page).toContain('<link rel="alternate" type="application/json+oembed" href="https://cms.example/api/speech/oembed?url=');
    expect(page).toContain('&amp;format=json"');
    expect(page).toContain('<html lang="ar">');
  });

  it('escapes the title and never runs inline script', () => {
    expect(page).toContain('<title>عنوان &lt;b&gt;&quot;مهم&quot;&lt;/b&gt; &amp; آخر</title>');
    expect(page).not.toContain('<b>');
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("is framable anywhere, under a policy that lets in only Strapi's scripts", () => {
    const policy = embedPolicy(['https:']);
    expect(policy).toContain('frame-ancestors *');
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("media-src 'self' https: blob:");
  });
});

describe('oEmbed', () => {
  it('is a rich iframe of the embed page, within the asked size', () => {
    const answer = oembedResponse({
      embedUrl: 'https://cms.example/api/speech/embed/doc1-en',
      title: 'A "title" & <more>',
      providerName: 'Example News',
      providerUrl: 'https://cms.example',
    });
    expect(answer).toEqual({
      version: '1.0',
      type: 'rich',
      title: 'A "title" & <more>',
      provider_name: 'Example News',
      provider_url: 'https://cms.example',
      width: EMBED_SIZE.width,
      height: EMBED_SIZE.height,
      html: '<iframe src="https://cms.example/api/speech/embed/doc1-en" width="640" height="360" title="A &quot;title&quot; &amp; &lt;more&gt;" style="border:0" loading="lazy" allow="autoplay"></iframe>',
    });
    const small = oembedResponse({
      embedUrl: 'https://x',
      title: null,
      providerName: 'x',
      providerUrl: 'https://x',
      maxWidth: 300,
      maxHeight: 1000,
    });
    expect([small.width, small.height]).toEqual([300, 360]);
    expect(small).not.toHaveProperty('title');
  });
});

describe('the "AI voice" label', () => {
  it('is the site’s words for the locale, then its language, then *, then the defaults', () => {
    expect(aiLabelFor({}, 'en')).toBe('AI voice');
    expect(aiLabelFor({}, 'ar-JO')).toBe(DEFAULT_AI_LABELS.ar);
    expect(aiLabelFor({}, 'fr')).toBe('AI voice');
    expect(aiLabelFor({ fr: 'Voix de synthèse' }, 'fr-CA')).toBe('Voix de synthèse');
    expect(aiLabelFor({ '*': 'Synthetic voice' }, 'de')).toBe('Synthetic voice');
    expect(aiLabelFor({ '*': 'Synthetic voice' }, 'ar')).toBe('Synthetic voice');
    expect(aiLabelFor({ 'ar-JO': 'صوت آلي' }, 'ar-JO')).toBe('صوت آلي');
    expect(aiLabelFor({}, null)).toBe('AI voice');
  });

  it('is off only when the file says false', () => {
    expect(aiLabelFor(false, 'en')).toBeNull();
  });
});
