/**
 * The documentation a user follows: README.md, CONTRIBUTING.md and docs/*.md. A link that leads
 * nowhere, a configuration key the reference forgot (or one it names that does not exist), and a
 * README install step that drifted from docs/install.md (the page tests/install runs) each fail
 * here, naming the page and the link or key. Markdown is read with marked's lexer (a dependency of
 * the plugin); anchors are GitHub's heading slugs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod/v3';
import { pluginConfigSchema } from '../../server/src/config/schema';
import { INSTALL_PAGE, readmeBlock } from '../install/readme-blocks';

const ROOT = path.resolve(__dirname, '../..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const read = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');

/** Every token of a page, tables' cells and lists' items included. */
function tokensOf(markdown: string): Token[] {
  const all: Token[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => void all.push(token));
  return all;
}

/** A heading's text as GitHub renders it: inline markup gone, code spans' text kept. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) =>
      'tokens' in token && token.tokens ? plainText(token.tokens) : token.type === 'html' ? '' : 'text' in token ? token.text : ''
    )
    .join('');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation and symbols dropped but `-` and `_`, spaces to hyphens. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated heading gets -1, -2... as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const token of tokensOf(markdown)) {
    if (token.type !== 'heading') continue;
    const base = slug(plainText((token as Tokens.Heading).tokens));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * Every relative link and image of `pages` (path -> markdown, paths from the root) whose file does
 * not exist, or whose `#anchor` is not a heading of the page it names; links with a scheme are
 * left to the web. `exists` answers for files outside `pages`.
 */
function brokenLinks(pages: Map<string, string>, exists: (file: string) => boolean): string[] {
  const anchors = new Map([...pages].map(([page, markdown]) => [page, anchorsOf(markdown)]));
  const broken: string[] = [];
  for (const [page, markdown] of pages) {
    for (const token of tokensOf(markdown)) {
      if (token.type !== 'link' && token.type !== 'image') continue;
      const href = (token as Tokens.Link | Tokens.Image).href;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const [file, anchor] = href.split('#', 2);
      const target = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(file))) : page;
      if (!pages.has(target) && !exists(target)) broken.push(`${page}: ${href} (no ${target})`);
      else if (anchor !== undefined && !anchors.get(target)?.has(anchor))
        broken.push(`${page}: ${href} (no heading #${anchor} in ${target})`);
    }
  }
  return broken;
}

/** What a record is keyed by, in a dotted path: `<uid>` for content-type uids, else `<key>`. */
function recordKey(keys: z.ZodTypeAny): string {
  return keys.safeParse('api::article.article').success && !keys.safeParse('en').success ? '<uid>' : '<key>';
}

/** The schema under its defaults, optionals, nullables and refinements. */
function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodDefault) return unwrap(schema._def.innerType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrap(schema.unwrap());
  if (schema instanceof z.ZodEffects) return unwrap(schema.innerType());
  return schema;
}

/**
 * The keys of a zod object schema as dotted paths: `leaves` (values a site sets: `feeds.limit`,
 * `contentTypes.<uid>.textFields`, `voices[].id`) and `inner` (objects holding them: `feeds`,
 * `contentTypes.<uid>`). A record or array of objects is walked into; of anything else, a leaf.
 */
function configKeys(schema: z.ZodTypeAny, prefix = ''): { leaves: string[]; inner: string[] } {
  const keys = { leaves: [] as string[], inner: [] as string[] };
  const visit = (node: z.ZodTypeAny, at: string) => {
    const inside = unwrap(node);
    if (inside instanceof z.ZodObject) {
      if (at) keys.inner.push(at);
      for (const [key, value] of Object.entries(inside.shape as Record<string, z.ZodTypeAny>)) visit(value, at ? `${at}.${key}` : key);
    } else if (inside instanceof z.ZodRecord && unwrap(inside.valueSchema) instanceof z.ZodObject) {
      keys.inner.push(at);
      visit(inside.valueSchema, `${at}.${recordKey(inside.keySchema)}`);
    } else if (inside instanceof z.ZodArray && unwrap(inside.element) instanceof z.ZodObject) {
      keys.inner.push(at);
      visit(inside.element, `${at}[]`);
    } else {
      keys.leaves.push(at);
    }
  };
  visit(schema, prefix);
  return keys;
}

/** The keys a reference page lists: the code spans of the first column of its tables headed `key`. */
function keysListed(markdown: string): string[] {
  const listed: string[] = [];
  for (const token of tokensOf(markdown)) {
    if (token.type !== 'table') continue;
    const table = token as Tokens.Table;
    if (plainText(table.header[0].tokens).trim() !== 'key') continue;
    for (const row of table.rows) {
      marked.walkTokens(row[0].tokens, (cell) => void (cell.type === 'codespan' && listed.push((cell as Tokens.Codespan).text)));
    }
  }
  return listed;
}

/** Keys of the schema the reference leaves out, and keys it lists that the schema does not have. */
function referenceProblems(schema: z.ZodTypeAny, markdown: string): { missing: string[]; unknown: string[] } {
  const { leaves, inner } = configKeys(schema);
  const listed = new Set(keysListed(markdown));
  const known = new Set([...leaves, ...inner]);
  return { missing: leaves.filter((key) => !listed.has(key)), unknown: [...listed].filter((key) => !known.has(key)) };
}

describe('the docs', () => {
  const pages = new Map(PAGES.map((page) => [page, read(page)]));

  it('link only to files and headings that exist', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/README.md', 'docs/configuration.md', INSTALL_PAGE])
    );
    expect(brokenLinks(pages, (file) => existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it('list every docs page in docs/README.md, the table of contents', () => {
    const links = tokensOf(pages.get('docs/README.md')!).filter((token): token is Tokens.Link => token.type === 'link');
    const linked = new Set(links.map((link) => path.posix.join('docs', link.href.split('#')[0])));
    expect(PAGES.filter((page) => page.startsWith('docs/') && page !== 'docs/README.md' && !linked.has(page))).toEqual([]);
  });

  it('keep the README short and each docs page to one question', () => {
    const lines = (page: string) => pages.get(page)!.split('\n').length - 1;
    expect(lines('README.md')).toBeLessThanOrEqual(250);
    expect(PAGES.filter((page) => page.startsWith('docs/') && lines(page) > 300).map((page) => `${page}: ${lines(page)} lines`)).toEqual(
      []
    );
  });

  it('start the README with the whole set-up, and name every variable the demo reads', () => {
    const readme = pages.get('README.md')!;
    expect((tokensOf(readme).find((token) => token.type === 'code') as Tokens.Code | undefined)?.text).toBe(
      'npm install && npm run demo\nnpm test'
    );
    const demo = readFileSync(path.join(ROOT, 'scripts/demo.mjs'), 'utf8');
    const variables = new Set([...demo.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]));
    expect(variables.size).toBeGreaterThan(5);
    expect([...variables].filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it("give in the README the install page's snippets, byte for byte", () => {
    const readme = pages.get('README.md')!;
    const names = [...readme.matchAll(/<!-- install-check:([a-z-]+) -->/g)].map((match) => match[1]);
    expect(names).toEqual(expect.arrayContaining(['pack', 'env', 'plugins-key', 'server-url', 'build']));
    for (const name of names) expect(readmeBlock(readme, name, 'README.md')).toBe(readmeBlock(pages.get(INSTALL_PAGE)!, name));
  });

  it('name in docs/configuration.md every key of the configuration schema, and no other', () => {
    const { leaves } = configKeys(pluginConfigSchema);
    expect(leaves).toEqual(
      expect.arrayContaining(['apiKey', 'contentTypes.<uid>.textFields', 'voices[].id', 'feeds.channel.imageUrl', 'budget.monthlyCredits'])
    );
    const { missing, unknown } = referenceProblems(pluginConfigSchema, pages.get('docs/configuration.md')!);
    if (missing.length || unknown.length) {
      throw new Error(
        `docs/configuration.md and server/src/config/schema.ts (with each feature's config.ts) disagree.\n` +
          `Keys of the schema the reference does not list: ${missing.join(', ') || 'none'}\n` +
          `Keys the reference lists that the schema does not have: ${unknown.join(', ') || 'none'}`
      );
    }
  });
});

/**
 * The Docker Compose example (docs/docker/): this machine has no Docker daemon and reaches no image
 * registry, so the file is checked for what starting it depends on, not started.
 */
describe('the Docker Compose example', () => {
  const compose = parseYaml(read('docs/docker/compose.yaml')) as {
    services: Record<string, any>;
    volumes: Record<string, unknown>;
  };
  const { strapi, postgres } = compose.services;

  it('starts Strapi on PostgreSQL once the database answers, and calls it healthy when /_health does', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'strapi']);
    expect(postgres.image).toMatch(/^postgres:\d+$/);
    expect(postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(strapi.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(strapi.healthcheck.test.join(' ')).toContain("fetch('http://127.0.0.1:1337/_health')");
    expect(strapi.ports).toEqual(['1337:1337']);
    // The database and the Media Library's files (the narrations) outlive the containers.
    expect(postgres.volumes).toEqual(['database:/var/lib/postgresql/data']);
    expect(strapi.volumes).toEqual(['uploads:/srv/app/public/uploads']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['database', 'uploads']);
  });

  it("passes the playground's database variables and every variable of the install page to Strapi", () => {
    const environment = strapi.environment as Record<string, string>;
    expect(environment).toMatchObject({ DATABASE_CLIENT: 'postgres', DATABASE_HOST: 'postgres', DATABASE_PORT: '5432' });
    const database = read('playground/config/database.ts');
    for (const name of ['DATABASE_NAME', 'DATABASE_USERNAME', 'DATABASE_PASSWORD']) {
      expect(database).toContain(`'${name}'`);
      expect(environment[name]).toBeTruthy();
    }
    const installVariables = readmeBlock(read(INSTALL_PAGE), 'env')
      .split('\n')
      .map((line) => line.split('=')[0])
      .filter(Boolean);
    expect(installVariables).toContain('PUBLIC_URL');
    expect(installVariables.filter((name) => !(name in environment))).toEqual([]);
    // The secrets come from the app's .env, never from the file.
    expect(strapi.env_file).toBe('.env');
    expect(environment.SPEECH_API_KEY).toBe('${SPEECH_API_KEY:?set SPEECH_API_KEY in .env}');
  });

  it('builds the image from the Dockerfile beside it, with the plugin tarball npm pack makes', () => {
    expect(strapi.build).toBe('.');
    const dockerfile = read('docs/docker/Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:(20|22|24)-/m);
    expect(dockerfile).toContain('strapi-plugin-speech-*.tgz');
    expect(dockerfile).toMatch(/RUN npm ci/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(dockerfile).toMatch(/CMD \["npm", "run", "start"\]/);
    expect(dockerfile.indexOf('WORKDIR /srv/app')).toBeGreaterThan(0);
  });
});

describe('the docs checks themselves', () => {
  it("make GitHub's anchors", () => {
    expect(slug('3. Merge into your config/plugins.ts')).toBe('3-merge-into-your-configpluginsts');
    expect(slug('Settings -> Speech')).toBe('settings---speech');
    expect(slug("The edit view's panel")).toBe('the-edit-views-panel');
    expect(slug('Ce qui est lu : العربية_1')).toBe('ce-qui-est-lu--العربية_1');
    expect([...anchorsOf('# Top\n\n## Set `up`\n\n## Set up\n\n## Set up\n')]).toEqual(['top', 'set-up', 'set-up-1', 'set-up-2']);
  });

  it('find a missing file, a missing heading, and nothing in code or on the web', () => {
    const pages = new Map([
      [
        'README.md',
        '# A\n\n[ok](docs/b.md#b-c) [img](docs/x.png) [web](https://example.com/nope) `[code](nowhere.md)`\n\n[gone](docs/c.md) [bad](#nope) [self](#a)',
      ],
      ['docs/b.md', '## B: c\n\n[up](../README.md#a) [lost](../README.md#b)'],
    ]);
    expect(brokenLinks(pages, (file) => file === 'docs/x.png')).toEqual([
      'README.md: docs/c.md (no docs/c.md)',
      'README.md: #nope (no heading #nope in README.md)',
      'docs/b.md: ../README.md#b (no heading #b in README.md)',
    ]);
  });

  it('walk a schema into records and arrays of objects, and tell both sides of a disagreement', () => {
    const schema = z
      .object({
        a: z.string().default(''),
        b: z.object({ c: z.number().optional(), d: z.record(z.string(), z.number()) }).default({}),
        types: z.record(z.string().regex(/::/), z.object({ e: z.boolean() }).strict()).default({}),
        list: z.array(z.object({ id: z.string() })).default([]),
      })
      .strict();
    expect(configKeys(schema)).toEqual({
      leaves: ['a', 'b.c', 'b.d', 'types.<uid>.e', 'list[].id'],
      inner: ['b', 'types', 'types.<uid>', 'list', 'list[]'],
    });
    const reference =
      '| key | meaning |\n| --- | --- |\n| `a`, `b.c` | |\n| `b` | |\n| `types.<uid>.e` | |\n| `list[].name` | |\n\n| variable | |\n| --- | --- |\n| `X` | |\n';
    expect(keysListed(reference)).toEqual(['a', 'b.c', 'b', 'types.<uid>.e', 'list[].name']);
    expect(referenceProblems(schema, reference)).toEqual({ missing: ['b.d', 'list[].id'], unknown: ['list[].name'] });
  });
});
