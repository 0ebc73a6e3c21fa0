// Checks a model's raw tool arguments against the tool's TypeBox schema.
import { Value } from "@sinclair/typebox/value";
import type { Tool, ToolCall } from "../ai/index.js";

/**
 * Coerces what can be coerced ("3" → 3 for a number field), then checks.
 * The error names the tool, every failing path and the received arguments, so the model can fix its call.
 */
export function validateToolArguments(tool: Tool, toolCall: Pick<ToolCall, "arguments">): any {
	const original = toolCall.arguments ?? {};
	const converted = Value.Convert(tool.parameters, structuredClone(original));
	if (Value.Check(tool.parameters, converted)) return converted;

	const problems = [...Value.Errors(tool.parameters, converted)]
		.map((error) => `  - ${error.path || "(root)"}: ${error.message}`)
		.join("\n");
	throw new Error(
		`Validation failed for tool "${tool.name}":\n${problems}\n\nReceived arguments:\n${JSON.stringify(original, null, 2)}`,
	);
}
