// Token usage and its price: every assistant message carries usage.cost computed from the model's prices.
import type { Model, Usage } from "./llm-types.js";

export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Computes `usage.cost` (US dollars) from the model's per-million-token prices; stores it and returns it. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
	const perToken = (pricePerMillion: number, tokens: number) => (pricePerMillion * tokens) / 1_000_000;
	const cost = {
		input: perToken(model.cost.input, usage.input),
		output: perToken(model.cost.output, usage.output),
		cacheRead: perToken(model.cost.cacheRead, usage.cacheRead),
		cacheWrite: perToken(model.cost.cacheWrite, usage.cacheWrite),
		total: 0,
	};
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	usage.cost = cost;
	return cost;
}

/** Sets totalTokens and cost from the four counters. */
export function finalizeUsage(model: Pick<Model, "cost">, usage: Usage): Usage {
	usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	calculateCost(model, usage);
	return usage;
}
