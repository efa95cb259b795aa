// The common interface every tool module implements; tools/registry.ts lists them once.
import path from 'node:path';
import type { z } from 'zod';
import { type AiTool, ErrorCode, QuireError, parsePageRanges, type ToolId, toolParams, type PageRange } from '@quire/contracts';
import { editableInput, type EngineLimits } from '../engines/qpdf.js';
import type { FileType } from '../engines/fileTypes.js';
import type { OfficePool } from '../engines/office.js';
import type { ModelProvider } from '../engines/ai/model.js';
import type { SigningCertificate, TimestampAuthority } from '../config.js';
import type { InputFacts, WorkBudget } from './budget.js';
import type { Said } from '../texts/words.js';

export interface ToolInput {
  path: string;
  name: string;
  password?: string;
  pages: number;
  /** The bytes as uploaded, where a repair at upload stored others (`path`). */
  asUploaded?: string;
}

export interface ToolOutput {
  path: string;
  name: string;
  /** A line for the result view, e.g. how many replacements were made: worded in the reader's language. */
  note?: Said;
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
  /** The operator's PKCS#12 for digital signatures, where one is configured (the worker gives it). */
  signingCertificate?: SigningCertificate | undefined;
  /** The operator's Time Stamping Authority, where one is configured (the worker gives it). */
  timestampAuthority?: TimestampAuthority | undefined;
  /** The work one task may do, checked again where the task learns its inputs exactly (none outside the worker). */
  budget?: WorkBudget;
  /**
   * The model the operator configured for an AI tool, its answers charged to the task's owner, or
   * null for the classic provider (the worker gives it).
   */
  modelFor?: (tool: AiTool) => ModelProvider | null;
}

export interface InputRef {
  fileId: string;
  password?: string;
}

/**
 * A stage a tool's run starts with (OCR before converting): from the inputs it is given it makes
 * the inputs of the next step, or of the tool's own run. Shared steps live in tools/steps/.
 */
export interface Step {
  /** The percentage of the task's progress this step reports in. */
  share: number;
  run(ctx: ToolContext): Promise<ToolInput[]>;
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
  /** The name the task's download will have, known when it is queued (the converter answers it then). */
  downloadName?(params: z.infer<(typeof toolParams)[Id]>, inputs: readonly { name: string; pages: number }[]): string;
  /**
   * A task of this tool on an output of this tool's own (taken with output-as-file) continues one
   * session: an anonymous visitor's allowance counts the session once (the editor's saves).
   */
  sessions?: boolean;
  /** The call recognises text (OCR), which a plan may not have or may hold to limits of its own. */
  usesOcr?(params: z.infer<(typeof toolParams)[Id]>): boolean;
  /** Checks the call against the inputs' page counts (and the page limit of one document) before a task is queued. */
  check?(params: z.infer<(typeof toolParams)[Id]>, pageCounts: number[], maxPages: number): void;
  /**
   * Refuses, before a task is queued, a call asking for more work than one task may do; else the
   * work it is (tools/budget.ts's units). Without it a page counts one (simpleWork).
   */
  work?(params: z.infer<(typeof toolParams)[Id]>, inputs: InputFacts[], budget: WorkBudget): number;
  /** Steps run in order before `run`, each on the inputs the one before made. */
  steps?(params: z.infer<(typeof toolParams)[Id]>): Step[];
  /** The outputs, from the inputs the steps made (the uploads when there are none), in the progress the steps leave. */
  run(ctx: ToolContext, params: z.infer<(typeof toolParams)[Id]>): Promise<ToolOutput[]>;
}

/** The context of a stage that moves the task's progress from `from` to `to` percent. */
const progressBetween = (ctx: ToolContext, from: number, to: number): ToolContext => ({
  ...ctx,
  progress: (percent) => ctx.progress(from + Math.round((percent * (to - from)) / 100)),
});

/** Runs a tool on its inputs: its steps in order, then its own run, each in its share of the progress. */
export async function runTool<Id extends ToolId>(tool: Tool<Id>, ctx: ToolContext, params: z.infer<(typeof toolParams)[Id]>) {
  let stage = ctx;
  let from = 0;
  for (const step of tool.steps?.(params) ?? []) {
    const to = Math.min(100, from + step.share);
    stage = { ...stage, inputs: await step.run(progressBetween(stage, from, to)) };
    from = to;
  }
  return tool.run(progressBetween(stage, from, 100), params);
}

/** A tool takes PDFs unless it says otherwise. */
export function defineTool<Id extends ToolId>(tool: Omit<Tool<Id>, 'params' | 'accepts'> & Partial<Pick<Tool<Id>, 'accepts'>>): Tool<Id> {
  return { accepts: ['pdf'], ...tool, params: toolParams[tool.id] };
}

/** The single-file tools all name their input the same way. */
export const singleInput = (p: { file_id: string; passwd?: string }): InputRef[] => [{ fileId: p.file_id, password: p.passwd }];

/** Parses a range list against a page count, failing with the catalogue's message for it. */
export function rangesOrThrow(input: string, pageCount: number): PageRange[] {
  const parsed = parsePageRanges(input, pageCount);
  if (!parsed.ok) throw new QuireError(ErrorCode.InvalidParams, parsed.message);
  return parsed.ranges;
}

export const qpdfRange = (ranges: PageRange[]) => ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',');

/** Several outputs are offered as one zip named after the input they came from: "160F-2019.pdf" -> "160F-2019.zip". */
export function zipName(inputName: string): string {
  return `${path.basename(inputName, path.extname(inputName)) || 'quire'}.zip`;
}

/** "report.pdf" + "rotated" -> "report-rotated.pdf" */
export function outputName(inputName: string, suffix: string, ext = '.pdf'): string {
  const base = path.basename(inputName, path.extname(inputName)) || 'document';
  return `${base}-${suffix}${ext}`;
}

/**
 * The input as a file every engine can open: encrypted or damaged PDFs reach poppler, MuPDF and
 * OCRmyPDF as qpdf opens (with the visitor's password) and repairs them, in the job's folder.
 */
export function readableInput(ctx: Pick<ToolContext, 'workDir' | 'limits'>, input: ToolInput, name = 'input.pdf'): Promise<string> {
  return editableInput({ file: input.path, password: input.password }, input.pages, path.join(ctx.workDir, name), ctx.limits);
}
