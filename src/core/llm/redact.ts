// Error text must never show an API key, whatever the server or the SDK echoed back.

/** Replaces every occurrence of each secret in `text` with "***". */
export function redactSecrets(text: string, ...secrets: (string | undefined)[]): string {
	let out = text;
	for (const secret of secrets) {
		// A one- or two-character "key" is a placeholder, and replacing it would mangle the message.
		if (!secret || secret.length < 3) continue;
		out = out.split(secret).join("***");
	}
	return out;
}
