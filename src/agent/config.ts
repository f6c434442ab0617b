/**
 * Command-line flags and environment: where sessions live, which brain thinks, and how to reach
 * a model. Flags win over environment variables; `ACP_NATIVE_*` names win over the `OPENAI_*`
 * ones many tools already set.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { isModeId, MODE_IDS, type ModeId } from './permissions';

export interface LlmConfig {
  baseURL?: string;
  model: string;
  apiKey?: string;
}

export interface AgentConfig {
  stateDir: string;
  brain: 'scripted' | 'llm';
  defaultMode: ModeId;
  llm?: LlmConfig;
}

export type ParsedConfig = { ok: true; config: AgentConfig } | { ok: false; exitCode: number; message: string };

export const USAGE = `Usage: node agent.js [options]

The ACP Native bundled agent. Speaks the Agent Client Protocol (v1) on stdin/stdout.

Options (environment variable in brackets):
  --state-dir DIR   where session logs are kept [ACP_NATIVE_STATE_DIR]
                    default: $XDG_STATE_HOME/acp-native, ~/.local/state/acp-native,
                    ~/Library/Application Support/acp-native (macOS), %LOCALAPPDATA%\\acp-native (Windows)
  --brain NAME      scripted (default, offline) or llm [ACP_NATIVE_BRAIN]
  --mode MODE       initial session mode: ${MODE_IDS.join(', ')} (default ask) [ACP_NATIVE_MODE]
  --base-url URL    OpenAI-compatible endpoint, e.g. http://localhost:11434/v1
                    [ACP_NATIVE_LLM_BASE_URL, OPENAI_BASE_URL]
  --model NAME      model name, required with --brain llm [ACP_NATIVE_LLM_MODEL, OPENAI_MODEL]
  --api-key KEY     API key, if the endpoint wants one [ACP_NATIVE_LLM_API_KEY, OPENAI_API_KEY]
  --help            show this help
`;

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ParsedConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'state-dir': { type: 'string' },
        brain: { type: 'string' },
        mode: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    return { ok: false, exitCode: 2, message: `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}` };
  }
  if (values.help === true) return { ok: false, exitCode: 0, message: USAGE };
  const pick = (flag: string, ...names: string[]): string | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === 'string' && fromFlag !== '') return fromFlag;
    for (const name of names) if (env[name]) return env[name];
    return undefined;
  };

  const brain = pick('brain', 'ACP_NATIVE_BRAIN') ?? 'scripted';
  if (brain !== 'scripted' && brain !== 'llm') return { ok: false, exitCode: 2, message: `Unknown brain "${brain}": use scripted or llm.` };
  const mode = pick('mode', 'ACP_NATIVE_MODE') ?? 'ask';
  if (!isModeId(mode)) return { ok: false, exitCode: 2, message: `Unknown mode "${mode}": use ${MODE_IDS.join(', ')}.` };
  const config: AgentConfig = { stateDir: pick('state-dir', 'ACP_NATIVE_STATE_DIR') ?? defaultStateDir(env), brain, defaultMode: mode };
  if (brain === 'llm') {
    const model = pick('model', 'ACP_NATIVE_LLM_MODEL', 'OPENAI_MODEL');
    if (model === undefined) {
      return { ok: false, exitCode: 2, message: 'The llm brain needs a model: --model NAME (or ACP_NATIVE_LLM_MODEL / OPENAI_MODEL).' };
    }
    const baseURL = pick('base-url', 'ACP_NATIVE_LLM_BASE_URL', 'OPENAI_BASE_URL');
    const apiKey = pick('api-key', 'ACP_NATIVE_LLM_API_KEY', 'OPENAI_API_KEY');
    config.llm = { model, ...(baseURL !== undefined ? { baseURL } : {}), ...(apiKey !== undefined ? { apiKey } : {}) };
  }
  return { ok: true, config };
}

function defaultStateDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, 'acp-native');
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'acp-native');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'acp-native');
  return path.join(home, '.local', 'state', 'acp-native');
}
