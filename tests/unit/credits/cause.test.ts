import { AUTOMATIC, editorOrigin, personName, publishOrigin } from '../../../server/src/credits/domain/cause';

describe('who caused a charge (credits/domain/cause.ts)', () => {
  it('a publish outside any request is the plugin on its own', () => {
    expect(publishOrigin(undefined)).toEqual(AUTOMATIC);
    expect(publishOrigin(null)).toEqual({ cause: 'automatic', causedBy: null });
  });

  it('an admin in the Content Manager is named with their id', () => {
    const state = { isAuthenticatedAdmin: true, user: { id: 3, firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' } };
    expect(publishOrigin(state)).toEqual({ cause: 'admin-publish', causedBy: 'Ada Lovelace (#3)' });
    expect(publishOrigin({ auth: { strategy: { name: 'admin' } }, user: { id: 4, email: 'e@example.com' } })).toEqual({
      cause: 'admin-publish',
      causedBy: 'e@example.com (#4)',
    });
  });

  it('an API token is named by its name, never its key', () => {
    const state = { auth: { strategy: { name: 'api-token' }, credentials: { id: 9, name: 'Front end', accessKey: 'secret' } } };
    expect(publishOrigin(state)).toEqual({ cause: 'api-publish', causedBy: 'API token "Front end"' });
    expect(JSON.stringify(publishOrigin(state))).not.toContain('secret');
    // Strapi 5.54 names the content API's token strategy `content-api-token`, and the admin's `admin-token`.
    const current = { auth: { strategy: { name: 'content-api-token' }, credentials: { name: 'Front end' } } };
    expect(publishOrigin(current)).toEqual({ cause: 'api-publish', causedBy: 'API token "Front end"' });
    const adminToken = { auth: { strategy: { name: 'admin-token' }, credentials: { name: 'Deploy' } } };
    expect(publishOrigin(adminToken)).toEqual({ cause: 'admin-publish', causedBy: 'admin token "Deploy"' });
  });

  it('a users-permissions user and the Public role publish through the API', () => {
    expect(publishOrigin({ auth: { strategy: { name: 'users-permissions' } }, user: { id: 2, username: 'writer' } })).toEqual({
      cause: 'api-publish',
      causedBy: 'user writer (#2)',
    });
    expect(publishOrigin({})).toEqual({ cause: 'api-publish', causedBy: 'Public role' });
  });

  it('names a person by first and last name, else the user name, else the email; blank names do not count', () => {
    expect(personName({ id: 7, firstname: ' ', lastname: '', username: 'ada', email: 'a@example.com' })).toBe('ada (#7)');
    expect(personName({ firstname: 'Ada', lastname: '  ' })).toBe('Ada');
    expect(personName({ email: 'a@example.com' })).toBe('a@example.com');
    expect(personName({})).toBeNull();
    expect(personName(null)).toBeNull();
    expect(personName({ id: 1, firstname: 'x'.repeat(300) })).toHaveLength(200);
  });

  it("names a token by its name, cut to a column's length, and a token without one by its kind", () => {
    const long = 't'.repeat(300);
    const adminToken = publishOrigin({ auth: { strategy: { name: 'admin-token' }, credentials: { name: long } } });
    expect(adminToken.causedBy).toHaveLength(200);
    expect(adminToken.causedBy).toMatch(/^admin token "t+$/);
    const apiToken = publishOrigin({ auth: { strategy: { name: 'api-token' }, credentials: { name: long } } });
    expect(apiToken.causedBy).toHaveLength(200);
    expect(publishOrigin({ auth: { strategy: { name: 'admin-token' }, credentials: null } })).toEqual({
      cause: 'admin-publish',
      causedBy: 'admin token',
    });
    expect(publishOrigin({ auth: { strategy: { name: 'content-api-token' } } })).toEqual({ cause: 'api-publish', causedBy: 'API token' });
  });

  it("names an API user from the request's user, else from the strategy's credentials", () => {
    expect(publishOrigin({ user: { id: 2, username: 'writer' } })).toEqual({ cause: 'api-publish', causedBy: 'user writer (#2)' });
    expect(publishOrigin({ auth: { strategy: { name: 'users-permissions' }, credentials: { id: 8, username: 'editor' } } })).toEqual({
      cause: 'api-publish',
      causedBy: 'user editor (#8)',
    });
    expect(publishOrigin({ auth: { strategy: { name: 'users-permissions' } } })).toEqual({ cause: 'api-publish', causedBy: 'user' });
    expect(publishOrigin({ auth: null, user: null })).toEqual({ cause: 'api-publish', causedBy: 'Public role' });
    expect(publishOrigin({ auth: { strategy: null } })).toEqual({ cause: 'api-publish', causedBy: 'Public role' });
  });

  it('editor actions keep their own cause', () => {
    expect(editorOrigin('bulk', { id: 1, firstname: 'Sara' })).toEqual({ cause: 'bulk', causedBy: 'Sara (#1)' });
    expect(editorOrigin('regenerate', null)).toEqual({ cause: 'regenerate', causedBy: null });
    expect(personName({ id: 5 })).toBe('#5');
    expect(personName({ firstname: 'x'.repeat(300) })!.length).toBe(200);
  });
});
