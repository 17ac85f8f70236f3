/** The one normalisation of an email, applied before it is stored, compared or throttled. */
export const normaliseEmail = (email: string): string => email.trim();
