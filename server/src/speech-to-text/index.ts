/** Speech to text: the admin's transcriptions, and how a job's status is read. */
export { planFromError, planFromStatus } from './status';
