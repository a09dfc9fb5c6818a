import {
  blocksToText,
  ensureSentenceEnd,
  extractNarration,
  fieldToText,
  narrationParagraphs,
  htmlToText,
  markdownToText,
  normaliseNarrationText,
} from '../../../server/src/text';

/** The text extractNarration gives (its heading positions are tested with chapters). */
const extractNarrationText = (...args: Parameters<typeof extractNarration>) => extractNarration(...args).text;

const text = (value: string) => ({ type: 'text', text: value });

/** Every node type Strapi 5's blocks editor produces, plus a nested list and an unknown node. */
const richBlocks = [
  { type: 'heading', level: 1, children: [text('Breaking   news')] },
  {
    type: 'paragraph',
    children: [
      text('The '),
      { type: 'text', text: 'council', bold: true },
      text(' met  today; read the '),
      { type: 'link', url: 'https://example.com/minutes', children: [{ type: 'text', text: 'minutes', italic: true }] },
      text(' & <notes>.'),
    ],
  },
  { type: 'heading', level: 2, children: [text('What was decided?')] },
  {
    type: 'list',
    format: 'ordered',
    children: [
      { type: 'list-item', children: [text('A new park')] },
      {
        type: 'list',
        format: 'unordered',
        indentLevel: 1,
        children: [
          { type: 'list-item', children: [text('with trees')] },
          { type: 'list-item', children: [text('and a pond!')] },
        ],
      },
      { type: 'list-item', children: [text('Longer opening hours,')] },
    ],
  },
  {
    type: 'list',
    format: 'unordered',
    children: [
      { type: 'list-item', children: [text('Bread')] },
      { type: 'list-item', children: [text('Milk')] },
    ],
  },
  { type: 'quote', children: [text('We are delighted,'), text(' said the mayor.')] },
  { type: 'code', plainText: 'npm install', children: [text('npm install')] },
  {
    type: 'image',
    image: { url: '/uploads/park.jpg', alternativeText: 'An artist impression', width: 800, height: 600 },
    children: [text('')],
  },
  { type: 'paragraph', children: [text('Use '), { type: 'text', text: 'git pull', code: true }, text(' to update.')] },
  { type: 'callout', children: [text('Unknown node text'), { type: 'paragraph', children: [text('and a paragraph inside it')] }] },
  { type: 'paragraph', children: [text('   ')] },
];

describe('blocksToText', () => {
  it('reads a rich document sensibly', () => {
    expect(blocksToText(richBlocks)).toBe(
      [
        'Breaking news.',
        'The council met today; read the minutes & <notes>.',
        'What was decided?',
        '1. A new park.\nwith trees.\nand a pond!\n2. Longer opening hours,',
        'Bread.\nMilk.',
        'We are delighted, said the mayor.',
        'Use git pull to update.',
        'Unknown node text',
        'and a paragraph inside it',
      ].join('\n\n')
    );
  });

  it('never reads URLs, image alt text or code blocks', () => {
    const result = blocksToText(richBlocks);
    expect(result).not.toMatch(/https?:|example\.com|uploads|artist impression|npm install/);
  });

  it('supports a nested list placed inside a list-item', () => {
    const blocks = [
      {
        type: 'list',
        format: 'unordered',
        children: [
          {
            type: 'list-item',
            children: [text('Fruit'), { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [text('Apples')] }] }],
          },
        ],
      },
    ];
    expect(blocksToText(blocks)).toBe('Fruit.\n1. Apples.');
  });

  it('keeps soft line breaks inside a paragraph as line breaks', () => {
    expect(blocksToText([{ type: 'paragraph', children: [text('Roses are red,\nviolets are blue')] }])).toBe(
      'Roses are red,\nviolets are blue'
    );
  });

  it('gives an empty string for anything that is not a blocks array, and ignores junk nodes', () => {
    expect(blocksToText(undefined)).toBe('');
    expect(blocksToText('text')).toBe('');
    expect(blocksToText([])).toBe('');
    expect(blocksToText([null, 42, 'x', { type: 'paragraph', children: [null, text('Kept')] }])).toBe('Kept');
    expect(blocksToText([{ type: 'image', children: [] }])).toBe('');
  });
});

describe('markdownToText', () => {
  const markdown = [
    '# Heading one',
    '',
    'Some *emphasis*, **strong** and `inline code` with a [link](https://example.com "title") and',
    'a soft   line break. ![diagram](https://example.com/d.png)',
    '',
    '- first',
    '- second',
    '  1. nested one',
    '  2. nested two',
    '',
    '> A block quote',
    '> over two lines.',
    '',
    '```js',
    'const secret = 1;',
    '```',
    '',
    '| Name | Age |',
    '| ---- | --- |',
    '| Ali  | 30  |',
    '| Sara |     |',
    '',
    '<div class="x">Raw <em>HTML</em> here</div>',
    '',
    '---',
    '',
    'AT&amp;T &copy; 2024',
  ].join('\n');

  it('converts markdown to clean paragraphs', () => {
    expect(markdownToText(markdown)).toBe(
      [
        'Heading one.',
        'Some emphasis, strong and inline code with a link and a soft line break.',
        'first.\nsecond.\n1. nested one.\n2. nested two.',
        'A block quote over two lines.',
        'Name, Age.\nAli, 30.\nSara.',
        'Raw HTML here',
        'AT&T © 2024',
      ].join('\n\n')
    );
  });

  it('passes plain text through unchanged in meaning', () => {
    expect(markdownToText('Just a sentence.\n\nAnd another one.')).toBe('Just a sentence.\n\nAnd another one.');
    expect(markdownToText('')).toBe('');
    expect(markdownToText('   \n\n  ')).toBe('');
  });
});

describe('htmlToText', () => {
  const html = `
    <h2>Título &amp; more</h2>
    <p>First&nbsp;paragraph with <a href="https://example.com">a link</a> and <img src="x.png" alt="a picture">.</p>
    <script>alert("never read")</script>
    <style>p { color: red }</style>
    <ul>
      <li>Outer one
        <ul><li>Inner one</li><li>Inner two?</li></ul>
      </li>
      <li>Outer two</li>
    </ul>
    <ol start="3"><li>Third</li><li>Fourth</li></ol>
    <blockquote><p>Quoted words</p></blockquote>
    <pre><code>rm -rf /</code></pre>
    <p>Line one<br>Line two</p>
    <table><thead><tr><th>City</th><th>Pop.</th></tr></thead><tbody><tr><td>Amman</td><td>4 M</td></tr></tbody></table>
    <p>5 &lt; 6 &gt; 4 &quot;ok&quot; &#1575;</p>
  `;

  it('converts HTML to narration text', () => {
    expect(htmlToText(html)).toBe(
      [
        'Título & more.',
        'First paragraph with a link and .',
        'Outer one.\nInner one.\nInner two?\nOuter two.',
        '3. Third.\n4. Fourth.',
        'Quoted words',
        'Line one\nLine two',
        'City, Pop.\nAmman, 4 M.',
        '5 < 6 > 4 "ok" ا',
      ].join('\n\n')
    );
  });

  it('drops scripts, styles, URLs and code blocks and keeps headings in their case', () => {
    const result = htmlToText(html);
    expect(result).not.toMatch(/alert|color: red|https?:|x\.png|a picture|rm -rf/);
    expect(result).toContain('Título');
  });
});

describe('Arabic text', () => {
  it('keeps right-to-left text in logical order and respects Arabic punctuation', () => {
    const entry = {
      title: 'عنوان المقال',
      body: '## هل تعلم؟\n\nهذا   نص عربي، مع *تأكيد*.\n\n- البند الأول\n- البند الثاني؛\n\n### الخلاصة۔',
    };
    expect(extractNarrationText(entry, { titleField: 'title', textFields: ['body'] })).toBe(
      'عنوان المقال.\n\nهل تعلم؟\n\nهذا نص عربي، مع تأكيد.\n\nالبند الأول.\nالبند الثاني؛\n\nالخلاصة۔'
    );
  });

  it('removes invisible direction marks, which cost credits but carry no speech', () => {
    expect(normaliseNarrationText('\u200Fمرحبا\u200E \u202Bبالعالم\u202C\uFEFF')).toBe('مرحبا بالعالم');
    // ZWNJ shapes Persian words and must survive.
    expect(normaliseNarrationText('می\u200Cخواهم')).toBe('می\u200Cخواهم');
  });
});

describe('ensureSentenceEnd (title and heading punctuation)', () => {
  it.each([
    ['Title', 'Title.'],
    ['Title.', 'Title.'],
    ['Really?', 'Really?'],
    ['Wow!', 'Wow!'],
    ['Note:', 'Note:'],
    ['And then…', 'And then…'],
    ['لماذا؟', 'لماذا؟'],
    ['خلاصہ۔', 'خلاصہ۔'],
    ['عنوان', 'عنوان.'],
    ['He said "stop."', 'He said "stop."'],
    ['The (draft)', 'The (draft).'],
    ['«Bonjour»', '«Bonjour».'],
    ['first item,', 'first item,'],
    ['Party 🎉', 'Party 🎉.'],
    ['Trailing   ', 'Trailing.'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(ensureSentenceEnd(input)).toBe(expected);
  });

  it('applies to the title', () => {
    expect(extractNarrationText({ title: 'Budget 2025' }, { titleField: 'title', textFields: [] })).toBe('Budget 2025.');
    expect(extractNarrationText({ title: 'Why now?' }, { titleField: 'title', textFields: [] })).toBe('Why now?');
    expect(extractNarrationText({ title: '  Multi\n  line   title ' }, { titleField: 'title', textFields: [] })).toBe('Multi line title.');
  });
});

describe('extractNarrationText', () => {
  const attributes = {
    title: { type: 'string' },
    summary: { type: 'text' },
    body: { type: 'richtext' },
    content: { type: 'blocks' },
    views: { type: 'integer' },
    secret: { type: 'password' },
    html: { type: 'customField' },
  };
  const entry: Record<string, unknown> = {
    title: 'A day in *Amman*',
    summary: 'Short  summary\nwith a line break and a literal * star',
    body: '## Morning\n\nCoffee **first**.',
    content: [{ type: 'paragraph', children: [text('From blocks.')] }],
    views: 1234,
    secret: 'hunter2',
    html: '<p>From an <b>HTML</b> editor</p>',
  };
  const fields = { titleField: 'title', textFields: ['summary', 'body', 'content', 'views', 'secret', 'html'] };

  it('joins the title and each field as paragraphs, converting by attribute type', () => {
    expect(extractNarrationText(entry, fields, attributes)).toBe(
      [
        'A day in *Amman*.',
        'Short summary\nwith a line break and a literal * star',
        'Morning.',
        'Coffee first.',
        'From blocks.',
        'From an HTML editor',
      ].join('\n\n')
    );
  });

  it('sniffs the value when attribute types are not given', () => {
    expect(extractNarrationText(entry, fields)).toBe(
      [
        'A day in *Amman*.',
        // without a type, a string is read as markdown: the lone star is literal text there too
        'Short summary with a line break and a literal * star',
        'Morning.',
        'Coffee first.',
        'From blocks.',
        // no type, so the password field is just a string: types are what keep secrets out
        'hunter2',
        'From an HTML editor',
      ].join('\n\n')
    );
  });

  it('is stable: the same input always gives the same string', () => {
    const first = extractNarrationText(entry, fields, attributes);
    for (let i = 0; i < 5; i += 1) {
      expect(extractNarrationText(structuredClone(entry), { ...fields }, attributes)).toBe(first);
    }
    // Equivalent Unicode compositions give the same text (and so the same fingerprint).
    const composed = extractNarrationText({ t: 'Caf\u00e9' }, { titleField: 't', textFields: [] });
    const decomposed = extractNarrationText({ t: 'Cafe\u0301' }, { titleField: 't', textFields: [] });
    expect(decomposed).toBe(composed);
  });

  it('has no trailing spaces, no runs of blank lines and no surrounding whitespace', () => {
    const result = extractNarrationText(entry, fields, attributes);
    expect(result).not.toMatch(/[ \t]$/m);
    expect(result).not.toMatch(/\n{3,}/);
    expect(result).toBe(result.trim());
  });

  it('skips missing, empty and non-text fields safely', () => {
    const messy: Record<string, unknown> = {
      title: 42,
      a: null,
      b: undefined,
      c: { nested: 'object' },
      d: ['not', 'blocks'],
      e: true,
      f: '   ',
      g: [{ type: 'paragraph', children: [text('  ')] }],
      h: 'Only this.',
    };
    expect(extractNarrationText(messy, { titleField: 'title', textFields: ['missing', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] })).toBe(
      'Only this.'
    );
    expect(extractNarrationText({}, { titleField: 'title', textFields: ['body'] })).toBe('');
    expect(extractNarrationText({ body: '' }, { textFields: ['body'] })).toBe('');
  });

  it('reads the title once even if it is also listed as a text field, and each field once', () => {
    expect(extractNarrationText({ title: 'Hello', body: 'World' }, { titleField: 'title', textFields: ['title', 'body', 'body'] })).toBe(
      'Hello.\n\nWorld'
    );
  });

  it('does not read inherited properties as fields', () => {
    const entryWithProto = Object.create({ body: 'inherited' }) as Record<string, unknown>;
    expect(extractNarrationText(entryWithProto, { textFields: ['body'] })).toBe('');
  });
});

describe('fieldToText', () => {
  it('reads HTML stored in a plain text field as HTML, and prose with angle brackets as prose', () => {
    expect(fieldToText('<p>Hello <b>there</b></p>', 'text')).toBe('Hello there');
    expect(fieldToText('if x<y and y>z then', 'text')).toBe('if x<y and y>z then');
    expect(fieldToText('if x < y and y > z then')).toBe('if x < y and y > z then');
  });

  it('reads blocks stored in a json field', () => {
    expect(fieldToText([{ type: 'paragraph', children: [text('json blocks')] }], 'json')).toBe('json blocks');
    expect(fieldToText({ some: 'json' }, 'json')).toBe('');
  });
});

describe('narrationParagraphs', () => {
  it('splits on blank lines, keeping lines of one paragraph together', () => {
    expect(narrationParagraphs('Title.\n\nFirst line,\nsame paragraph.\n\n\n\nLast one.')).toEqual([
      'Title.',
      'First line,\nsame paragraph.',
      'Last one.',
    ]);
  });

  it('gives nothing for empty or blank text', () => {
    expect(narrationParagraphs('')).toEqual([]);
    expect(narrationParagraphs(' \n\n \t\n')).toEqual([]);
  });

  it('gives the paragraphs of what extractNarrationText produced, title first', () => {
    const text = extractNarrationText(
      { title: 'A title', body: '<p>One.</p><p>Two</p>' },
      { titleField: 'title', textFields: ['body'] },
      { title: { type: 'string' }, body: { type: 'richtext' } }
    );
    expect(narrationParagraphs(text)).toEqual(['A title.', 'One.', 'Two']);
  });
});

describe('skipped block kinds (skipBlocks)', () => {
  const blocks = [
    { type: 'paragraph', children: [text('Intro.')] },
    { type: 'quote', children: [text('A quoted line.')] },
    { type: 'code', language: 'js', children: [text('const x = 1;')] },
    { type: 'image', image: { url: '/x.png', alternativeText: 'A diagram' }, children: [text('')] },
    { type: 'paragraph', children: [text('Outro.')] },
  ];
  const markdown = [
    'Intro.',
    '',
    '> A quoted line.',
    '',
    '    indented code',
    '',
    '```',
    'fenced code',
    '```',
    '',
    '| A | B |',
    '| - | - |',
    '| 1 | 2 |',
    '',
    'Outro.',
  ].join('\n');
  const html =
    '<p>Intro.</p><figure><img src="x.png" alt="A diagram"><figcaption>A caption.</figcaption></figure><blockquote>Quoted.</blockquote><table><tr><td>1</td><td>2</td></tr></table><p>Outro.</p>';

  it("none by default: today's reading (quotes, tables, captions read; code and images never)", () => {
    expect(blocksToText(blocks)).toBe('Intro.\n\nA quoted line.\n\nOutro.');
    expect(markdownToText(markdown)).toBe('Intro.\n\nA quoted line.\n\nA, B.\n1, 2.\n\nOutro.');
    expect(htmlToText(html)).toBe('Intro.\n\nA caption.\n\nQuoted.\n\n1, 2.\n\nOutro.');
    expect(blocksToText(blocks, [])).toBe(blocksToText(blocks));
  });

  it('blocks: quotes skipped', () => {
    expect(blocksToText(blocks, ['quote'])).toBe('Intro.\n\nOutro.');
    expect(blocksToText(blocks, ['code', 'image'])).toBe('Intro.\n\nA quoted line.\n\nOutro.');
  });

  it('markdown: quotes and tables skipped; fenced and indented code are never read', () => {
    expect(markdownToText(markdown, ['quote'])).toBe('Intro.\n\nA, B.\n1, 2.\n\nOutro.');
    expect(markdownToText(markdown, ['table'])).toBe('Intro.\n\nA quoted line.\n\nOutro.');
    expect(markdownToText(markdown, ['quote', 'table', 'code'])).toBe('Intro.\n\nOutro.');
  });

  it('HTML: image captions, quotes and tables skipped, each on its own', () => {
    expect(htmlToText(html, ['image'])).toBe('Intro.\n\nQuoted.\n\n1, 2.\n\nOutro.');
    expect(htmlToText(html, ['quote', 'table'])).toBe('Intro.\n\nA caption.\n\nOutro.');
    // Order and repeats do not matter.
    expect(htmlToText(html, ['table', 'quote', 'table'])).toBe(htmlToText(html, ['quote', 'table']));
  });

  it('applies to every chosen field of an entry, whatever its type', () => {
    const entry = { title: 'T', body: blocks, notes: markdown };
    const attributes = { title: { type: 'string' }, body: { type: 'blocks' }, notes: { type: 'richtext' } };
    const textOf = (skipBlocks?: Array<'quote' | 'table'>) =>
      extractNarrationText(entry, { titleField: 'title', textFields: ['body', 'notes'], skipBlocks }, attributes);
    expect(textOf(['quote', 'table'])).toBe('T.\n\nIntro.\n\nOutro.\n\nIntro.\n\nOutro.');
    expect(textOf(undefined)).toBe(textOf([]));
    expect(textOf([])).toContain('A quoted line.');
  });
});
