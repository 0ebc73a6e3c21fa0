// Masking secret values (API keys, tokens) wherever they appear verbatim: the one way for every path that keeps them
// out of sight (provider errors, tool results, live tool output, shell output joining a prompt). Which values are
// secrets is the caller's to say.

/** What a masked value becomes. */
export const MASK = "***";
/** A live text may start or end inside a secret (its tail was cut there): this much of one is masked too. */
const MIN_EDGE = 4;
/** Shorter "keys" are placeholders (an error's "x"); masking them would mangle the message. */
const MIN_KEY_LENGTH = 3;

export interface SecretMask {
	/** The values masked, longest first. */
	readonly values: readonly string[];
	/** The text with every secret value replaced. */
	mask(text: string): string;
	/** mask(), and a secret's start at the text's end or its end at the text's start (output cut mid-secret). */
	maskLive(text: string): string;
}

/**
 * A mask for the values of at least `minLength` characters (blanks around them not counted). Longer values are
 * replaced first, so a secret that contains another is masked whole.
 */
export function maskValues(values: readonly (string | undefined)[], minLength: number): SecretMask {
	const kept = [...new Set(values)]
		.filter((value): value is string => typeof value === "string" && value.trim().length >= minLength)
		.sort((a, b) => b.length - a.length);
	const mask = (text: string) => (kept.length === 0 ? text : kept.reduce((out, value) => (out.includes(value) ? out.split(value).join(MASK) : out), text));
	return {
		values: kept,
		mask,
		maskLive(text) {
			let out = mask(text);
			for (const value of kept) {
				for (let length = value.length - 1; length >= MIN_EDGE; length--) {
					if (out.endsWith(value.slice(0, length))) {
						out = out.slice(0, -length) + MASK;
						break;
					}
				}
				for (let length = value.length - 1; length >= MIN_EDGE; length--) {
					if (out.startsWith(value.slice(-length))) {
						out = MASK + out.slice(length);
						break;
					}
				}
			}
			return out;
		},
	};
}

/** `text` with every occurrence of each secret replaced by MASK: error text must never show an API key. */
export function redactSecrets(text: string, ...secrets: (string | undefined)[]): string {
	return maskValues(secrets, MIN_KEY_LENGTH).mask(text);
}
