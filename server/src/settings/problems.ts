import type { z } from 'zod/v3';

export interface ConfigProblem {
  path: ReadonlyArray<string | number>;
  message: string;
}

/** The config file's errors carry the `speech.config.` prefix; the settings route's 400 names the same keys without it. */
export function describeConfigProblems(problems: readonly ConfigProblem[], prefix = 'speech.config.'): string {
  return problems.map((problem) => `${prefix}${problem.path.length ? problem.path.join('.') : '(root)'}: ${problem.message}`).join('\n');
}

export function configIssues(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path,
    message: issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}` : issue.message,
  }));
}

export function describeConfigIssues(error: z.ZodError, prefix?: string): string {
  return describeConfigProblems(configIssues(error), prefix);
}

export function invalidConfigError(problems: readonly ConfigProblem[]): Error {
  return new Error(`Invalid configuration of the speech plugin:\n${describeConfigProblems(problems)}`);
}
