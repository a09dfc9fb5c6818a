import { conditionLocales, grantedLocales } from '../../../server/src/access/document-permissions';

/** A stand-in for Strapi's CASL ability: rules per action and subject. */
function ability(rules: Array<{ conditions?: unknown; inverted?: boolean }>, can = true) {
  return { can: () => can, rulesFor: () => rules };
}
const READ = 'plugin::content-manager.explorer.read';

describe('document permissions without reading documents', () => {
  it('reads the locales out of the condition i18n writes, and nothing else', () => {
    expect(conditionLocales(undefined)).toBe('all');
    expect(conditionLocales({})).toBe('all');
    expect(conditionLocales({ $and: [{ locale: { $in: ['en', 'ar'] } }] })).toEqual(new Set(['en', 'ar']));
    expect(conditionLocales({ $and: [{ locale: { $in: ['en', 'ar'] } }, { locale: { $in: ['ar'] } }] })).toEqual(new Set(['ar']));
    // "Is creator" and anything else need the document itself.
    expect(conditionLocales({ $and: [{ locale: { $in: ['en'] } }, { 'createdBy.id': 3 }] })).toBeNull();
    expect(conditionLocales({ $or: [{ locale: { $in: ['en'] } }] })).toBeNull();
    expect(conditionLocales({ locale: 'en' })).toBeNull();
  });

  it('grants by locale only when every rule allows and none has another condition', () => {
    expect(grantedLocales(ability([{ conditions: { $and: [{ locale: { $in: ['en', 'ar'] } }] } }]), READ, 'api::a.a')).toEqual(
      new Set(['en', 'ar'])
    );
    expect(grantedLocales(ability([{ conditions: { $and: [{ locale: { $in: ['en'] } }] } }, { conditions: {} }]), READ, 'api::a.a')).toBe(
      'all'
    );
    expect(grantedLocales(ability([{ conditions: { $and: [{ 'createdBy.id': 1 }] } }]), READ, 'api::a.a')).toBeNull();
    expect(grantedLocales(ability([{ conditions: {}, inverted: true }]), READ, 'api::a.a')).toBeNull();
    expect(grantedLocales(ability([{ conditions: {} }], false), READ, 'api::a.a')).toBeNull();
    expect(grantedLocales(ability([]), READ, 'api::a.a')).toBeNull();
    expect(grantedLocales(null, READ, 'api::a.a')).toBeNull();
  });
});
