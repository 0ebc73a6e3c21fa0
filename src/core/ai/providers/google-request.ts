// Builds a Gemini streamGenerateContent request body from the core's context, typed with the @google/genai SDK's
// types (only its types: the request itself is sent by google-generative-ai.ts, see there why).
import type { Content, GenerationConfig, Part, ThinkingConfig, Tool as GeminiTool } from "@google/genai";
import type { AssistantMessage, Context, ImageContent, Message, Model, TextContent, ThinkingLevel, ToolResultMessage } from "../llm-types.js";
import type { ProviderStreamOptions } from "./provider-run.js";
import { normalizeAnthropicToolCallId, transformMessages } from "../transform-messages.js";

/** The body of `models/<id>:streamGenerateContent`, in the API's JSON (field names as the SDK's types spell them). */
export interface GoogleRequestBody {
	contents: Content[];
	systemInstruction?: Content;
	tools?: GeminiTool[];
	generationConfig?: GenerationConfig;
}

/** What each thinking level asks of Gemini: a thinking budget in tokens, with thought summaries. "off" asks nothing. */
export const GOOGLE_THINKING: Readonly<Record<ThinkingLevel, ThinkingConfig | undefined>> = {
	off: undefined,
	low: { thinkingBudget: 2048, includeThoughts: true },
	medium: { thinkingBudget: 8192, includeThoughts: true },
	high: { thinkingBudget: 24576, includeThoughts: true },
};

/**
 * Gemini 3 refuses a function call in the history without the thought signature it came with. Calls it did not
 * make (another provider's, or older Gemini's) carry this value instead, which Google documents for that case.
 */
const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

export function buildGoogleParams(model: Model, context: Context, options: ProviderStreamOptions = {}): GoogleRequestBody {
	// Call ids go along (Gemini takes them, though it names none itself), restricted to the characters every API takes.
	const messages = transformMessages(context.messages, model, { normalizeToolCallId: normalizeAnthropicToolCallId });
	const body: GoogleRequestBody = { contents: convertMessages(messages, model) };
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }] };
	if (context.tools?.length) {
		body.tools = [
			{
				// JSON Schema as is (the older `parameters` field takes only an OpenAPI subset).
				functionDeclarations: context.tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })),
			},
		];
	}
	const config: GenerationConfig = {};
	if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	if (options.temperature !== undefined) config.temperature = options.temperature;
	const thinking = model.reasoning && options.reasoning ? GOOGLE_THINKING[options.reasoning] : undefined;
	if (thinking) config.thinkingConfig = { ...thinking };
	if (Object.keys(config).length > 0) body.generationConfig = config;
	return body;
}

/** True for Gemini 3 and later, which insist on thought signatures for function calls. */
function requiresCallSignatures(modelId: string): boolean {
	const match = /gemini-(\d+)/.exec(modelId);
	return match !== null && Number(match[1]) >= 3;
}

function convertMessages(messages: Message[], model: Model): Content[] {
	const contents: Content[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const parts = typeof message.content === "string" ? (message.content.trim() === "" ? [] : [{ text: message.content }]) : convertParts(message.content);
			if (parts.length > 0) contents.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = convertAssistant(message, requiresCallSignatures(model.id));
			if (parts.length > 0) contents.push({ role: "model", parts });
		} else {
			// Results of one batch answer the calls together, in their order, their images after them all.
			const last = contents.at(-1);
			const { response, images } = convertResult(message);
			if (last?.role === "user" && last.parts?.[0]?.functionResponse) {
				const firstImage = last.parts.findIndex((part) => part.inlineData);
				last.parts.splice(firstImage === -1 ? last.parts.length : firstImage, 0, response);
				last.parts.push(...images);
			} else {
				contents.push({ role: "user", parts: [response, ...images] });
			}
		}
	}
	return contents;
}

function convertAssistant(message: AssistantMessage, callsNeedSignatures: boolean): Part[] {
	const parts: Part[] = [];
	// A turn Gemini signed goes back exactly as signed (of parallel calls, only the first carries a signature); an
	// unsigned one (another model's) gets the stand-in on its first call.
	let standIn = callsNeedSignatures && !message.content.some((block) => (block.type === "thinking" ? block.thinkingSignature : block.signature));
	for (const block of message.content) {
		if (block.type === "thinking") {
			// Only this model's own thoughts reach here (transformMessages made others text); unsigned ones add nothing.
			if (block.thinkingSignature) parts.push({ thought: true, text: block.thinking, thoughtSignature: block.thinkingSignature });
		} else if (block.type === "text") {
			parts.push(block.signature ? { text: block.text, thoughtSignature: block.signature } : { text: block.text });
		} else {
			const part: Part = { functionCall: { id: block.id, name: block.name, args: block.arguments ?? {} } };
			if (block.signature) part.thoughtSignature = block.signature;
			else if (standIn) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
			standIn = false;
			parts.push(part);
		}
	}
	return parts;
}

function convertResult(message: ToolResultMessage): { response: Part; images: Part[] } {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = convertParts(message.content.filter((block): block is ImageContent => block.type === "image"));
	const output = text === "" ? (images.length > 0 ? "(images follow)" : "(no output)") : text;
	const response = message.isError ? { error: output } : { output };
	return { response: { functionResponse: { id: message.toolCallId, name: message.toolName, response } }, images };
}

function convertParts(blocks: (TextContent | ImageContent)[]): Part[] {
	return blocks.flatMap((block): Part[] => {
		if (block.type === "text") return block.text === "" ? [] : [{ text: block.text }];
		return [{ inlineData: { mimeType: block.mimeType, data: block.data } }];
	});
}
