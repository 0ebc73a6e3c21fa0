// The command line's session: its options mapped onto createAgentSession's, the one way a session is made.
// Loaded only on paths that run a model, so --help and --version never import the SDKs.
import type { SessionUi, Settings } from "../core/index.js";
import {
	assembleAgentSession,
	type CreateAgentSessionResult,
	SessionManager,
	SessionOptionError,
} from "../sdk/index.js";
import { RuleError } from "../plugs/index.js";
import type { TextFileAccess } from "../tools/index.js";
import type { CliOptions } from "./args.js";
import { type OutputCheck, outputInstruction } from "./print/index.js";
import { CLI_WORDING, optionUsageError, UsageError } from "./run-io.js";

export interface SessionSetup {
	options: CliOptions;
	settings: Settings;
	home: string;
	cwd: string;
	/** An existing session file to continue, or undefined for a new session. */
	sessionFile?: string;
	/** Start a new session from sessionFile's conversation instead of continuing it (--fork). */
	fork?: boolean;
	/** Notices until an interface installs its own ui (print mode keeps it). */
	ui: SessionUi;
	/** The file tools read and write text through this (an editor's buffers) instead of the disk. */
	files?: TextFileAccess;
	/** --output-schema, compiled: the providers are asked for it and the system prompt says it. */
	output?: OutputCheck;
	/** The screen's first frame: the background loads for the first shell command wait for it. */
	preloadAfter?: PromiseLike<unknown>;
}

export async function createSession(setup: SessionSetup): Promise<CreateAgentSessionResult> {
	const { options, settings, home, cwd, ui, output } = setup;
	const appendSystemPrompt = output ? [options.appendSystemPrompt, outputInstruction(output)].filter(Boolean).join("\n\n") : options.appendSystemPrompt;
	try {
		return await assembleAgentSession({
			cwd,
			loomHome: home,
			settings,
			provider: options.provider,
			model: options.model,
			baseUrl: options.baseUrl,
			apiKey: options.apiKey,
			thinkingLevel: options.thinking,
			toolExecution: options.toolExecution,
			tools: options.tools,
			agent: options.agent,
			systemPrompt: options.systemPrompt,
			appendSystemPrompt,
			outputSchema: output?.schema,
			contextFiles: options.contextFiles,
			extensions: options.extensions,
			trustProject: options.trust || undefined,
			mcpConfig: options.mcpConfig,
			sessionManager: sessionManager(setup),
			maxTurns: options.maxTurns,
			checkpoints: options.checkpoints,
			approval: options.approval,
			allow: options.allow,
			deny: options.deny,
			sandbox: options.sandbox,
			ui,
			files: setup.files,
			preloadAfter: setup.preloadAfter,
		}, CLI_WORDING);
	} catch (error) {
		if (error instanceof SessionOptionError) throw optionUsageError(error);
		if (error instanceof RuleError && error.source.startsWith("--")) throw new UsageError(error.message);
		throw error;
	}
}

function sessionManager({ sessionFile, fork, options, cwd }: SessionSetup): SessionManager {
	if (sessionFile !== undefined) return fork ? SessionManager.fork(sessionFile, cwd, options.fork?.entry) : SessionManager.open(sessionFile);
	return options.persist ? SessionManager.create(cwd) : SessionManager.inMemory(cwd);
}
