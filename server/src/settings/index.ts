/** The settings in effect, the site's own voices, and how a bad configuration value is told. */
export { describeConfigIssues, describeConfigProblems } from './problems';
export type { SettingsService } from './service';
export { siteVoices } from './site-voices';
