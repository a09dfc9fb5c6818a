/** Speech to text: the admin's transcriptions, and how a job's status is read. Other features import it from here. */
export { planFromError, planFromStatus, type PollPlan } from './status';
