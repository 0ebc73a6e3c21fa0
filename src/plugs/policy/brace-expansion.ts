// Brace expansion, which bash does before anything else to a word: `{~,x}` is two words, `~` and `x`;
// `/{,}` is `/ /`; `{1..3}` is `1 2 3`. Read on the word as written, so quotes and `${…}` are not braces.

/** More words than this from one word are not worked out. */
const MAX_WORDS = 256;

/** The words `text` (a word as written) expands to; undefined when it holds no brace expansion. */
export function braceAlternatives(text: string): string[] | "too many" | undefined {
	if (!text.includes("{")) return undefined;
	const out = expand(text, 0);
	if (out === undefined) return "too many";
	return out.length === 1 && out[0] === text ? undefined : out;
}

function expand(text: string, depth: number): string[] | undefined {
	const group = firstGroup(text);
	if (!group || depth > 16) return [text];
	const { start, end, parts } = group;
	const prefix = text.slice(0, start);
	const results: string[] = [];
	for (const part of parts) {
		for (const word of expand(prefix + part + text.slice(end + 1), depth + 1) ?? []) {
			results.push(word);
			if (results.length > MAX_WORDS) return undefined;
		}
	}
	return results;
}

/** The first `{…}` that bash expands: unquoted, not `${`, with a top-level comma or a `a..b` sequence. */
function firstGroup(text: string): { start: number; end: number; parts: string[] } | undefined {
	let quote: string | undefined;
	for (let at = 0; at < text.length; at++) {
		const char = text[at];
		if (char === "\\") {
			at++;
		} else if (quote) {
			if (char === quote) quote = undefined;
		} else if (char === "'" || char === '"') {
			quote = char;
		} else if (char === "$" && (text[at + 1] === "{" || text[at + 1] === "(")) {
			at = closing(text, at + 1);
		} else if (char === "{") {
			const group = groupAt(text, at);
			if (group) return group;
		}
	}
	return undefined;
}

/** Where the bracket opened at `open` closes (the end of the text when it does not). */
function closing(text: string, open: number): number {
	const pairs: Record<string, string> = { "{": "}", "(": ")" };
	let depth = 0;
	for (let at = open; at < text.length; at++) {
		if (text[at] === "\\") at++;
		else if (text[at] === text[open]) depth++;
		else if (text[at] === pairs[text[open]] && --depth === 0) return at;
	}
	return text.length;
}

function groupAt(text: string, start: number): { start: number; end: number; parts: string[] } | undefined {
	const parts: string[] = [];
	let depth = 0;
	let quote: string | undefined;
	let from = start + 1;
	for (let at = start + 1; at < text.length; at++) {
		const char = text[at];
		if (char === "\\") at++;
		else if (quote) {
			if (char === quote) quote = undefined;
		} else if (char === "'" || char === '"') quote = char;
		else if (char === "$" && text[at + 1] === "{") at = closing(text, at + 1);
		else if (char === "{") depth++;
		else if (char === "}" && depth > 0) depth--;
		else if (char === "," && depth === 0) {
			parts.push(text.slice(from, at));
			from = at + 1;
		} else if (char === "}") {
			const body = text.slice(from, at);
			if (parts.length > 0) return { start, end: at, parts: [...parts, body] };
			const sequence = sequenceOf(body);
			return sequence ? { start, end: at, parts: sequence } : undefined;
		}
	}
	return undefined;
}

/** `1..5`, `a..e`, `10..1..3`; undefined when it is not a sequence (or too long one). */
function sequenceOf(body: string): string[] | undefined {
	const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
	const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
	const match = numbers ?? letters;
	if (!match) return undefined;
	const [from, to] = numbers ? [Number(match[1]), Number(match[2])] : [match[1].charCodeAt(0), match[2].charCodeAt(0)];
	const step = Math.abs(Number(match[3] ?? 1)) || 1;
	if (Math.abs(to - from) / step > MAX_WORDS) return undefined;
	const out: string[] = [];
	for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
		out.push(numbers ? String(value) : String.fromCharCode(value));
	}
	return out;
}
