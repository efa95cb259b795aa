// The common interface every tool module implements; tools/registry.ts lists them once.
import path from 'node:path';
import type { z } from 'zod';
import { ErrorCode, QuireError, parsePageRanges, type ToolId, toolParams, type PageRange } from '@quire/contracts';
import type { EngineLimits } from '../engines/qpdf.js';
import type { FileType } from '../engines/fileTypes.js';
import type { OfficePool } from '../engines/office.js';

export interface ToolInput {
  path: string;
  name: string;
  password?: string;
  pages: number;
}

export interface ToolOutput {
  path: string;
  name: string;
  /** A line for the result view, e.g. how many replacements were made. */
  note?: string;
  /** Size of the input this output was made from, where the result view compares them (compress). */
  inputSize?: number;
  /** Nothing could be gained: the output is the input as it was. */
  unchanged?: boolean;
}

export interface ToolContext {
  inputs: ToolInput[];
  /** An empty folder owned by this run; outputs are written here. */
  workDir: string;
  limits: EngineLimits;
  /** The LibreOffice listeners (the worker gives its own); conversions from office formats need them. */
  office?: OfficePool;
  /** Reports 0–100 for this task. */
  progress(percent: number): void;
}

export interface InputRef {
  fileId: string;
  password?: string;
}

export interface Tool<Id extends ToolId = ToolId> {
  id: Id;
  params: (typeof toolParams)[Id];
  /**
   * The file types the tool takes, or a function of the call giving them (the converter takes
   * documents to make PDFs and PDFs to make images); others are refused when the task is made.
   */
  accepts: readonly FileType[] | ((params: z.infer<(typeof toolParams)[Id]>) => readonly FileType[]);
  /** The uploaded files the call names, with the passwords given for them. */
  inputsOf(params: z.infer<(typeof toolParams)[Id]>): InputRef[];
  /** Checks the call against the inputs' page counts before a task is queued. */
  check?(params: z.infer<(typeof toolParams)[Id]>, pageCounts: number[]): void;
  run(ctx: ToolContext, params: z.infer<(typeof toolParams)[Id]>): Promise<ToolOutput[]>;
}

/** A tool takes PDFs unless it says otherwise. */
export function defineTool<Id extends ToolId>(tool: Omit<Tool<Id>, 'params' | 'accepts'> & Partial<Pick<Tool<Id>, 'accepts'>>): Tool<Id> {
  return { accepts: ['pdf'], ...tool, params: toolParams[tool.id] };
}

/** The single-file tools all name their input the same way. */
export const singleInput = (p: { file_id: string; passwd?: string }): InputRef[] => [{ fileId: p.file_id, password: p.passwd }];

/** Parses a range list against a page count, failing with the spec's message. */
export function rangesOrThrow(input: string, pageCount: number): PageRange[] {
  const parsed = parsePageRanges(input, pageCount);
  if (!parsed.ok) throw new QuireError(ErrorCode.InvalidParams, parsed.message);
  return parsed.ranges;
}

export const qpdfRange = (ranges: PageRange[]) => ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',');

/** "report.pdf" + "rotated" -> "report-rotated.pdf" */
export function outputName(inputName: string, suffix: string, ext = '.pdf'): string {
  const base = path.basename(inputName, path.extname(inputName)) || 'document';
  return `${base}-${suffix}${ext}`;
}
