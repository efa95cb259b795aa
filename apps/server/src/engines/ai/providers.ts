// The one place a model provider is built from the configuration: the operator's GGUF model run
// by llama.cpp (local) or an OpenAI-compatible endpoint (openai).
import type { AiProvider } from '@quire/contracts';
import type { Config } from '../../config.js';
import { localModel, modelFileProblem } from './local.js';
import type { ModelProvider } from './model.js';
import { openAiModel } from './openai.js';

type ModelConfig = Pick<Config, 'aiProviders' | 'aiModels' | 'engineTimeoutMs'>;

/**
 * The model of `provider`. An answer may take the configured engine time limit; `workDir` holds
 * the local worker's job files (this process's scratch folder, cleared after a crash).
 */
export function createModelProvider(provider: ModelProvider['name'], config: ModelConfig, workDir: string): ModelProvider {
  if (provider === 'local') return localModel({ ...config.aiModels.local, timeoutMs: config.engineTimeoutMs, workDir });
  // loadConfig refuses a tool set to openai without an endpoint.
  return openAiModel({ ...config.aiModels.openai!, timeoutMs: config.engineTimeoutMs });
}

/**
 * Says in the log, at the start, when a tool's provider is local and its model file is missing or
 * not GGUF: its answers fail with 11020 until the operator fixes it.
 */
export async function reportModelProblems(config: ModelConfig): Promise<void> {
  const uses = (provider: AiProvider) => Object.values(config.aiProviders).includes(provider);
  if (!uses('local')) return;
  const { modelPath } = config.aiModels.local;
  const problem = await modelFileProblem(modelPath);
  if (problem) console.warn(`AI local model ${modelPath}: ${problem}; the tools it answers fail with 11020 until it is fixed`);
}
