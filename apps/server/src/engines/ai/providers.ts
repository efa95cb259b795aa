// The one place a model provider is built from the configuration: the AI tools ask for the model
// of a tool and get the operator's local model, the OpenAI-compatible endpoint, or none (classic).
import type { AiProvider, AiTool } from '@quire/contracts';
import type { AiConfig } from '../../config.js';
import { localModel, modelFileProblem } from './local.js';
import type { ModelProvider } from './model.js';
import { openAiModel } from './openai.js';

export interface ModelProviders {
  /** The model answering `tool`; undefined when its provider is classic. */
  modelFor(tool: AiTool): ModelProvider | undefined;
  close(): Promise<void>;
}

export interface ModelLimits {
  /** One answer, from its request to its last token. */
  timeoutMs: number;
  /** Where the local worker's job files are written (this process's scratch folder). */
  workDir: string;
}

/**
 * The providers the configuration names, each built once. A local model file that is missing or
 * not GGUF is said in the log now, at the start, and each answer asked of it fails with 11020.
 */
export function modelProviders(ai: AiConfig, limits: ModelLimits): ModelProviders {
  const uses = (provider: AiProvider) => Object.values(ai.providers).includes(provider);
  const local = uses('local') ? localModel({ ...ai.local, ...limits }) : undefined;
  const openai = uses('openai') && ai.openai ? openAiModel({ ...ai.openai, timeoutMs: limits.timeoutMs }) : undefined;
  if (local) {
    void modelFileProblem(ai.local.modelPath).then((problem) => {
      if (problem) console.warn(`AI local model ${ai.local.modelPath}: ${problem}; its tools answer 11020 until it is fixed`);
    });
  }
  return {
    modelFor: (tool) => {
      const provider = ai.providers[tool];
      return provider === 'local' ? local : provider === 'openai' ? openai : undefined;
    },
    close: async () => {
      await local?.close();
      await openai?.close();
    },
  };
}
