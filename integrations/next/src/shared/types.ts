import type { SvcClient } from '@svc/runtime';

/** One of the 16 reporting methods (`critical`, `majorHigh`, ...). */
export type ReportingMethodName = Exclude<keyof SvcClient, 'flush'>;
