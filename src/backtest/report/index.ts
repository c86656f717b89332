// Writes a backtest's report directory: report.json (metrics.ts) and report.html (html.ts), both
// pure functions of the input, so equal input gives byte-identical files. Creates the directory.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.js';
import type { ReportInput } from './input.js';
import { computeReport, reportJson, type Report } from './metrics.js';

export type { ReportInput } from './input.js';
export type { Report } from './metrics.js';
export { computeReport, reportJson } from './metrics.js';
export { reportFillsFromLedger, reportResolutionsFromLedger } from './from-ledger.js';
export { renderHtml, escapeHtml } from './html.js';
export { ProgressBar } from './progress.js';

export async function writeReport(dir: string, input: ReportInput, title?: string): Promise<Report> {
  const report = computeReport(input);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'report.json'), reportJson(report));
  await writeFile(join(dir, 'report.html'), renderHtml(report, input, title));
  return report;
}
