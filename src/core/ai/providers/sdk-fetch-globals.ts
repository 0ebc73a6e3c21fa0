// The Headers and FormData the bundled SDKs (openai, @anthropic-ai/sdk) see in place of fetch's globals
// (rolldown.config.mjs points their modules here). Node loads its whole fetch implementation on the first touch of
// any of its globals, and the SDKs touch Headers and FormData as they build every request, although loom sends
// through node:http (http-fetch.ts): with these, the first request goes out before fetch is loaded, and fetch loads
// while the server works on the answer. Both still recognise fetch's own objects (by their tag, which does not
// load fetch), so headers given as a Headers of Node's, or an answer's headers, are read as before.

type HeadersInitLike = Iterable<Iterable<string>> | Record<string, string>;

/** A header name as fetch accepts it (an HTTP token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What fetch strips from both ends of a value: HTTP whitespace. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** What no header value may hold: NUL, a line break, or a character beyond a byte (fetch's values are byte strings). */
const FORBIDDEN_IN_VALUE = /[\0\r\n]|[^\u0000-\u00ff]/;

function tagOf(value: unknown): string {
	return Object.prototype.toString.call(value);
}

function checkedName(name: string): string {
	const text = String(name);
	if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}".`);
	return text.toLowerCase();
}

function checkedValue(name: string, value: string): string {
	const text = String(value).replace(EDGE_WHITESPACE, "");
	if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers: invalid value for header "${name}".`);
	return text;
}

/**
 * fetch's Headers, as the WHATWG standard defines it for requests (no guard): names compared without case,
 * values trimmed and checked, iteration in name order with a name's values joined by ", " (set-cookie kept apart).
 */
export class SdkHeaders {
	/** Each name (lower case) to its values in the order they were added. */
	readonly #values = new Map<string, string[]>();

	constructor(init?: HeadersInitLike | null) {
		if (init === undefined || init === null) return;
		if (typeof init !== "object") throw new TypeError("Headers: the init must be an object or a list of pairs.");
		// Pairs, or a Headers (fetch's or this one), whose iteration gives its pairs.
		if (Symbol.iterator in init) {
			for (const pair of init as Iterable<Iterable<string>>) {
				const parts = Array.from(pair);
				if (parts.length !== 2) throw new TypeError("Headers: each pair must hold a name and a value.");
				this.append(parts[0]!, parts[1]!);
			}
			return;
		}
		for (const [name, value] of Object.entries(init as Record<string, string>)) this.append(name, value);
	}

	static [Symbol.hasInstance](value: unknown): boolean {
		return tagOf(value) === "[object Headers]";
	}

	get [Symbol.toStringTag](): string {
		return "Headers";
	}

	append(name: string, value: string): void {
		const key = checkedName(name);
		const values = this.#values.get(key);
		const checked = checkedValue(key, value);
		if (values) values.push(checked);
		else this.#values.set(key, [checked]);
	}

	set(name: string, value: string): void {
		const key = checkedName(name);
		this.#values.set(key, [checkedValue(key, value)]);
	}

	delete(name: string): void {
		this.#values.delete(checkedName(name));
	}

	get(name: string): string | null {
		return this.#values.get(checkedName(name))?.join(", ") ?? null;
	}

	has(name: string): boolean {
		return this.#values.has(checkedName(name));
	}

	getSetCookie(): string[] {
		return [...(this.#values.get("set-cookie") ?? [])];
	}

	forEach(callback: (value: string, name: string, headers: this) => void, thisArg?: unknown): void {
		for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
	}

	*entries(): IterableIterator<[string, string]> {
		// As fetch's: each step takes the next pair of the list as it is then, so a change while iterating shows.
		for (let index = 0; ; index++) {
			const pair = this.#pairs()[index];
			if (!pair) return;
			yield pair;
		}
	}

	#pairs(): [string, string][] {
		const pairs: [string, string][] = [];
		for (const name of [...this.#values.keys()].sort()) {
			const values = this.#values.get(name)!;
			if (name === "set-cookie") for (const value of values) pairs.push([name, value]);
			else pairs.push([name, values.join(", ")]);
		}
		return pairs;
	}

	*keys(): IterableIterator<string> {
		for (const [name] of this.entries()) yield name;
	}

	*values(): IterableIterator<string> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): IterableIterator<[string, string]> {
		return this.entries();
	}
}

/**
 * fetch's FormData, made only when an SDK builds an upload (loom sends none): then it is Node's own, loaded then.
 * An SDK's check whether a body is a FormData asks for the tag, so the check alone loads nothing.
 */
export class SdkFormData {
	constructor(...args: ConstructorParameters<typeof FormData>) {
		// A constructor returning an object makes `new SdkFormData()` that object: Node's FormData.
		return new globalThis.FormData(...args) as unknown as SdkFormData;
	}

	static [Symbol.hasInstance](value: unknown): boolean {
		return tagOf(value) === "[object FormData]";
	}
}
