// Recognises "the conversation no longer fits" from any provider, so the session can compact and retry.
import type { AssistantMessage } from "./llm-types.js";

const OVERFLOW_PATTERNS: RegExp[] = [
	/prompt is too long/i, // Anthropic
	/model_context_window_exceeded/i, // Anthropic stop reason
	/request_too_large/i, // Anthropic 413
	/context_length_exceeded/i, // OpenAI code (Chat Completions and Responses)
	/input exceeds the context window/i, // OpenAI Responses
	/input token count.*exceeds the maximum/i, // Gemini
	/maximum context length/i, // OpenAI, vLLM, OpenRouter, Groq
	/exceeds? (the )?(available )?context (size|window|length)/i, // llama.cpp, Ollama, others
	/exceed_context_size_error/i, // llama.cpp type
	/context (length|window) (of|is) (only )?\d+/i, // LM Studio
	/prompt too long/i, // Ollama
	/input (is )?too long/i,
	/reduce the length of the messages/i,
	/token limit exceeded/i,
];

/**
 * True when the message failed because the context was too long. With `contextWindow`, also true for a
 * "successful" reply whose reported input already exceeds the window (servers that truncate silently).
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason === "error") {
		const text = message.errorMessage ?? "";
		// Token-per-minute rate limits talk about tokens too, but compaction would not help them.
		if (/rate.?limit|\b429\b/i.test(text)) return false;
		return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
	}
	if (contextWindow && contextWindow > 0 && message.stopReason !== "aborted") {
		return message.usage.input + message.usage.cacheRead > contextWindow;
	}
	return false;
}
