// Text put into a regular expression as itself.

/** `text` with every character that means something in a RegExp source escaped (`/` too), so it matches itself. */
export function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
