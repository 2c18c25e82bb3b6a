/** Number formatting for report views: the report's one rounding (formats/numbers.ts). */
export { fmt, fmtInterval, pct } from '../../formats/numbers';
