/** The settings in effect, the site's own voices, and how a bad value of the configuration is told. Other features import it from here. */
export { describeConfigIssues, describeConfigProblems } from './problems';
export type { SettingsService } from './service';
export { siteVoices } from './site-voices';
