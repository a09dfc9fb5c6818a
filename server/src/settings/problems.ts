import type { z } from 'zod/v3';

/** One bad value: where it is in the plugin's config (`['contentTypes', uid, 'textFields', '0']`) and what is wrong. */
export interface ConfigProblem {
  path: ReadonlyArray<string | number>;
  message: string;
}

/**
 * "<prefix><key>: <message>" lines, so the offending key is obvious. The config file's errors
 * carry the `speech.config.` prefix; the settings route's 400 names the same keys without it.
 */
export function describeConfigProblems(problems: readonly ConfigProblem[], prefix = 'speech.config.'): string {
  return problems.map((problem) => `${prefix}${problem.path.length ? problem.path.join('.') : '(root)'}: ${problem.message}`).join('\n');
}

/** zod's issues as config problems (an unknown key is named as such). */
export function configIssues(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path,
    message: issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message,
  }));
}

/** Formats zod issues as "speech.config.<key>: <message>" lines. */
export function describeConfigIssues(error: z.ZodError, prefix?: string): string {
  return describeConfigProblems(configIssues(error), prefix);
}

/** The error that stops Strapi at start: every problem of the config file, one line each. */
export function invalidConfigError(problems: readonly ConfigProblem[]): Error {
  return new Error(`Invalid configuration of the speech plugin:\n${describeConfigProblems(problems)}`);
}
