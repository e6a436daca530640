/** Percentages of the daily quota at which the account's members are warned (contract 6, 8.3). */
export const WARNING_THRESHOLDS = [75, 90, 100] as const;
